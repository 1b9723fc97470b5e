// D-Bus activation through the TestBus's servicedir: a call with autoStart starts the service.
import DBus
import Foundation
import Testing
import TestSupport

/// A python3 that has dbus-python and GLib (python3-dbus, python3-gi), or nil.
let pythonWithDBus: String? = {
    for candidate in ["/usr/bin/python3", "/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
        let semaphore = DispatchSemaphore(value: 0)
        let ok = Locked(false)
        Task {
            let run = try? await ChildProcess.run(candidate, ["-c", "import dbus, dbus.mainloop.glib; from gi.repository import GLib"])
            ok.value = run?.termination == .exited(0)
            semaphore.signal()
        }
        semaphore.wait()
        if ok.value { return candidate }
    }
    return nil
}()

/// The activatable service: answers Hello on org.example.Activated and exits with its bus.
let activatedService = """
    import os, dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    bus = dbus.bus.BusConnection(os.environ["DBUS_STARTER_ADDRESS"])
    bus.call_on_disconnection(lambda *_: loop.quit())
    class Service(dbus.service.Object):
        @dbus.service.method("org.example.Activated", in_signature="s", out_signature="si")
        def Hello(self, who):
            return ("hello " + who, os.getpid())
    name = dbus.service.BusName("org.example.Activated", bus)
    Service(bus, "/org/example/Activated")
    GLib.timeout_add_seconds(120, loop.quit)
    loop.run()
    """

@Suite(.enabled(if: pythonWithDBus != nil, "needs python3 with dbus-python and GLib (python3-dbus, python3-gi)"))
struct ActivationTests {
    @Test func autoStartActivatesAServiceFromTheServiceDirectory() async throws {
        let python = try #require(pythonWithDBus)
        let temporary = try TemporaryDirectory(prefix: "activation")
        defer { temporary.remove() }
        let services = URL(fileURLWithPath: temporary.path, isDirectory: true)
        let script = services.appendingPathComponent("service.py").path
        try activatedService.write(toFile: script, atomically: true, encoding: .utf8)
        try """
            [D-BUS Service]
            Name=org.example.Activated
            Exec=\(python) \(script)

            """.write(to: services.appendingPathComponent("org.example.Activated.service"), atomically: true, encoding: .utf8)

        let pair = try await BusPair.start(serviceDirectory: services.path)
        let names = Inbox<Result<[String], DBusError>>()
        pair.client.listActivatableNames { names.put($0) }
        #expect(try await names.next().get().contains("org.example.Activated"))

        let call = MethodCall(
            destination: "org.example.Activated", path: "/org/example/Activated", interface: "org.example.Activated",
            member: "Hello", body: [.string("world")])
        do {
            _ = try await pair.client.call(call, autoStart: false)
            Issue.record("the service answered without being started")
        } catch {
            #expect(error.name == DBusError.nameHasNoOwnerName)
        }
        let reply = try await pair.client.call(call, timeout: Deadline.standardWait, autoStart: true)
        #expect(reply.first == .string("hello world"))
        let servicePID = try #require(reply.last?.int32)
        let owner = Inbox<String?>()
        _ = pair.client.watchNameOwner("org.example.Activated") { owner.put($0) }
        let unique = try #require(try await owner.next())
        #expect(try await pair.client.unixProcessID(of: unique) == UInt32(servicePID))
        await pair.bus.stopOffPool()
        // The service exits with its bus.
        try await waitUntil("the activated service to exit") { kill(servicePID, 0) != 0 }
    }
}
