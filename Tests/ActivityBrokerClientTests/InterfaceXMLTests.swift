// docs/interfaces/*.xml against what the broker, a client-library provider and the sheet really serve.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

/// The shipped introspection files (installed to `$datadir/dbus-1/interfaces/`) must describe
/// exactly the live interfaces: methods with their arguments in order (name, type, direction),
/// signals, properties with type and access. Doc comments and annotations are not compared.
@Suite(.timeLimit(.minutes(2))) struct InterfaceXMLTests {
    static let directory = repositoryRoot + "/docs/interfaces/"

    /// Prints each file's members, one per line, sorted; files separated by a line `==`.
    /// The standard org.freedesktop.DBus interfaces are left out.
    static let summarize = """
        import sys, xml.etree.ElementTree as ET
        def args(element, with_direction):
            return ", ".join(
                (a.get("direction", "in") + " " if with_direction else "") + a.get("name", "") + " " + a.get("type")
                for a in element.findall("arg"))
        for index, path in enumerate(sys.argv[1:]):
            if index: print("==")
            lines = []
            for interface in ET.parse(path).getroot().iter("interface"):
                name = interface.get("name")
                if name.startswith("org.freedesktop.DBus."): continue
                lines.append(name + " interface")
                for m in interface.findall("method"):
                    lines.append(name + " method " + m.get("name") + "(" + args(m, True) + ")")
                for s in interface.findall("signal"):
                    lines.append(name + " signal " + s.get("name") + "(" + args(s, False) + ")")
                for p in interface.findall("property"):
                    lines.append(name + " property " + p.get("name") + " " + p.get("type") + " " + p.get("access"))
            print("\\n".join(sorted(lines)))
        """

    /// Compares the shipped `file` with the XML `connection` gets from `destination` at `path`.
    func compare(_ file: String, destination: BusName, path: ObjectPath, on connection: Connection)
        async throws
    {
        let reply = try await connection.call(
            MethodCall(
                destination: destination, path: path, interface: .introspectable, member: "Introspect"),
            timeout: .seconds(10))
        let live = try TemporaryDirectory(prefix: "introspect")
        defer { live.remove() }
        try (reply.first?.string ?? "").write(
            toFile: live.file("live.xml"), atomically: true, encoding: .utf8)
        let run = try await ChildProcess.run(
            "/usr/bin/python3", ["-c", Self.summarize, Self.directory + file, live.file("live.xml")])
        #expect(run.termination == .exited(0), "\(run.standardError)")
        let parts = run.standardOutput.components(separatedBy: "==\n")
        #expect(parts.count == 2)
        guard parts.count == 2 else { return }
        #expect(!parts[1].isEmpty, "\(path) serves none of our interfaces")
        let shipped = Set(parts[0].split(separator: "\n")), served = Set(parts[1].split(separator: "\n"))
        #expect(
            shipped == served,
            """
            \(file) differs from what \(destination) serves at \(path)
            only in the file: \(shipped.subtracting(served).sorted())
            only served: \(served.subtracting(shipped).sorted())
            """)
    }

    @Test("Broker1.xml and Job1.xml describe the broker's live objects")
    func brokerAndJob() async throws {
        let broker = try await BrokerHarness(manifests: [
            "true.json": execManifest(id: "org.test.true", name: "True", argv: ["true"])
        ])
        defer { broker.stopInBackground() }
        let connection = try broker.bus.connect()
        defer { connection.close() }
        try await compare(
            "org.activitybroker.Broker1.xml", destination: "org.activitybroker.Broker1",
            path: "/org/activitybroker/Broker1", on: connection)
        let reply = try await connection.call(
            MethodCall(
                destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
                interface: "org.activitybroker.Broker1", member: "Perform",
                body: [
                    .string("org.test.true"), .vardict(["url": .string("https://example.org/")]),
                    .vardict([:]),
                ]),
            timeout: .seconds(10))
        let job = try #require(reply.first?.objectPath)
        // A finished job stays exported for a minute: long enough to introspect.
        try await compare(
            "org.activitybroker.Job1.xml", destination: "org.activitybroker.Broker1", path: job,
            on: connection)
    }

    @Test("Session1.xml and impl.Browser1.xml describe a browsing session and the browser contract")
    func sessionAndBrowser() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start(), start: false)
        defer { broker.stopInBackground() }
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        // The recording service exports Browser1 from the contract's own signatures.
        let browser = try await RecordingBrowser(bus: broker.bus)
        let connection = try broker.bus.connect()
        defer { connection.close() }
        try await compare(
            "org.activitybroker.impl.Browser1.xml", destination: "org.activitybroker.Browser",
            path: "/org/activitybroker/Browser", on: connection)
        let reply = try await connection.call(
            MethodCall(
                destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
                interface: "org.activitybroker.Broker1", member: "Browse",
                body: [.string(""), .string("https://example.org/"), .vardict([:])]),
            timeout: .seconds(10))
        let session = try #require(reply.first?.objectPath)
        try await compare(
            "org.activitybroker.Session1.xml", destination: "org.activitybroker.Broker1", path: session,
            on: connection)
        withExtendedLifetime(browser) {}
    }

    @Test("Provider1.xml describes what ActivityProvider exports")
    func provider() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let providerConnection = try bus.connect()
        let provider = ActivityProvider(connection: providerConnection, objectPath: "/org/example/Notes")
        try await provider.start(
            [ProvidedActivity(id: "org.example.Notes.save", name: "Save") { _ in .completed }],
            register: false)
        let connection = try bus.connect()
        defer { connection.close() }
        try await compare(
            "org.activitybroker.Provider1.xml", destination: try BusName(providerConnection.uniqueName),
            path: "/org/example/Notes", on: connection)
        await provider.close()
    }

    @Test("impl.Sheet1.xml describes what activity-sheet exports, started without a display")
    func sheet() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let home = try TemporaryDirectory(prefix: "sheet-home")
        defer { home.remove() }
        // No DISPLAY or WAYLAND_DISPLAY: the sheet serves anyway and answers Introspect.
        let sheet = try ChildProcess(
            executable: try BuiltProducts.executable("activity-sheet"), arguments: ["--bus", bus.address],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_RUNTIME_DIR": home.path,
                "PATH": "/usr/bin:/bin", "LANG": "C",
            ])
        defer { sheet.terminate() }
        _ = try await sheet.nextLine(in: .standardError) { $0.contains("serving ") }
        let connection = try bus.connect()
        defer { connection.close() }
        try await compare(
            "org.activitybroker.impl.Sheet1.xml", destination: "org.activitybroker.Sheet",
            path: "/org/activitybroker/Sheet", on: connection)
    }
}
