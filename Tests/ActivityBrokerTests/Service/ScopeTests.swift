// Launched children in transient systemd scopes: a fake systemd1 manager on the private bus records the requests.
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

/// A stand-in for the systemd user manager: owns `org.freedesktop.systemd1` on the test bus
/// and records every `StartTransientUnit` (answering with a job path, or with `failure`).
final class FakeSystemdManager: Sendable {
    let connection: Connection
    /// The bodies of the calls received, in order.
    let calls = Inbox<[Value]>()

    init(bus: TestBus, failure: DBusError? = nil) async throws {
        connection = try bus.connect()
        let calls = calls
        let method = Method(
            ScopeRequester.startTransientUnit,
            in: [
                Argument("name", "s"), Argument("mode", "s"), Argument("properties", "a(sv)"),
                Argument("aux", "a(sa(sv))"),
            ],
            out: [Argument("job", "o")],
            handler: .immediate { call in
                calls.put(call.body)
                if let failure { throw failure }
                return [.objectPath(try ObjectPath("/org/freedesktop/systemd1/job/\(calls.count)"))]
            })
        try connection.export(
            ScopeRequester.managerPath,
            interfaces: [Interface(ScopeRequester.managerInterface, methods: [method])])
        _ = try await connection.requestName(ScopeRequester.managerName)
    }

    deinit { connection.close() }
}

@Suite("transient systemd scopes for launched programs")
struct ScopeTests {
    static let items: [String: Value] = ["url": .string("https://example.org/")]

    @Test("With a systemd manager on the bus, an exec child and the opener each get their own scope")
    func scopeRequested() async throws {
        let f = try await BrokerFixture(start: false)
        let manager = try await FakeSystemdManager(bus: f.bus)
        let pidFile = f.output("pid")
        try f.write(
            TestManifest.json(
                id: "org.test.scoped-exec",
                perform: TestManifest.exec([
                    "/bin/sh", "-c", "echo $$ > \(pidFile).part && mv \(pidFile).part \(pidFile)",
                ])),
            to: "builtin/scoped.json")
        try f.write(
            TestManifest.json(id: "org.test.link", perform: #"{"open": "{url}"}"#), to: "builtin/link.json")
        try await f.startBroker()
        let finished = f.finishedSignals()

        let job = try await f.perform("org.test.scoped-exec", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        let pid = try #require(
            f.read(pidFile).flatMap { UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        let call = try await manager.calls.next("StartTransientUnit for the exec child")
        #expect(call.count == 4)
        #expect(call.first?.string == "app-activitybroker-org.test.scoped\\x2dexec-\(pid).scope")
        #expect(call.dropFirst().first?.string == "fail")
        let properties = try #require(call.dropFirst(2).first?.propertyArray)
        let byName = Dictionary(
            properties.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["PIDs"]?.array == [.uint32(pid)])
        #expect(byName["CollectMode"]?.string == "inactive-or-failed")
        #expect(byName["Description"]?.string?.contains("org.test.scoped-exec") == true)
        #expect(call.last == .array(element: "(sa(sv))", []))

        let open = try await f.perform("org.test.link", Self.items)
        #expect(try await f.finished(open, in: finished).state == "completed")
        let openCall = try await manager.calls.next("StartTransientUnit for the opener")
        let name = try #require(openCall.first?.string)
        #expect(name.hasPrefix("app-activitybroker-org.test.link-") && name.hasSuffix(".scope"))
        #expect(openCall.dropFirst(2).first?.propertyArray?.first?.name == "PIDs")
    }

    @Test("An installed application launched from its desktop entry gets a scope; its exit status is not awaited")
    func desktopEntryScope() async throws {
        let f = try await BrokerFixture(start: false)
        let manager = try await FakeSystemdManager(bus: f.bus)
        try FileManager.default.createDirectory(
            atPath: "\(f.root)/data/applications", withIntermediateDirectories: true)
        // It fails loudly, but the job completed when it started (launched detached, as GIO does).
        try f.write(
            DesktopAndPrivacyTests.desktopEntry(
                name: "Alpha Browser", exec: "sh -c \"echo loud >&2; exit 1\" sh %u"),
            to: "data/applications/org.test.alpha.desktop")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("desktop.org.test.alpha", Self.items)
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "completed")
        #expect(end.results["message"] == nil)
        let call = try await manager.calls.next("StartTransientUnit for the application")
        let name = try #require(call.first?.string)
        #expect(
            name.hasPrefix("app-activitybroker-desktop.org.test.alpha-") && name.hasSuffix(".scope"),
            "\(name)")
    }

    @Test("A manager that refuses does not fail the job; the refusal is logged once")
    func refusalIsHarmless() async throws {
        let f = try await BrokerFixture(
            builtin: [
                "true.json": TestManifest.json(id: "org.test.true", perform: TestManifest.exec(["true"]))
            ],
            start: false)
        let manager = try await FakeSystemdManager(
            bus: f.bus,
            failure: DBusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "no scopes today"))
        try await f.startBroker()
        let finished = f.finishedSignals()
        for _ in 0..<2 {
            let job = try await f.perform("org.test.true", Self.items)
            #expect(try await f.finished(job, in: finished).state == "completed")
            _ = try await manager.calls.next("StartTransientUnit")
        }
        try await waitUntil("the refusal in the log") { f.log.contains("no scopes today") }
        try await f.settle()
        #expect(f.log.components(separatedBy: "StartTransientUnit failed").count == 2)
    }

    @Test("Without a systemd manager on the bus, jobs complete as before and nothing is asked")
    func noManager() async throws {
        let f = try await BrokerFixture(builtin: [
            "true.json": TestManifest.json(id: "org.test.true", perform: TestManifest.exec(["true"])),
            "link.json": TestManifest.json(id: "org.test.link", perform: #"{"open": "{url}"}"#),
        ])
        let finished = f.finishedSignals()
        for id in ["org.test.true", "org.test.link"] {
            let job = try await f.perform(id, Self.items)
            #expect(try await f.finished(job, in: finished).state == "completed", "\(id)")
        }
        #expect(!f.log.contains("StartTransientUnit"))
    }

    @Test("Unit names escape the activity id as systemd does and stay within 255 bytes")
    func unitNames() {
        #expect(
            ScopeRequester.unitName(activity: "org.example.Share", pid: 42)
                == "app-activitybroker-org.example.Share-42.scope")
        #expect(
            ScopeRequester.unitName(activity: "firefox-esr.desktop", pid: 7)
                == "app-activitybroker-firefox\\x2desr.desktop-7.scope")
        #expect(
            ScopeRequester.unitName(activity: ".hidden é/x", pid: 1)
                == "app-activitybroker-\\x2ehidden\\x20\\xc3\\xa9\\x2fx-1.scope")
        let long = ScopeRequester.unitName(activity: String(repeating: "-", count: 300), pid: 2_147_483_647)
        #expect(long.utf8.count <= 255)
        #expect(long.hasSuffix("\\x2d-2147483647.scope"))
    }
}
