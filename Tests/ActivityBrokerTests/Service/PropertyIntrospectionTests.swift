// Broker1 properties (Get, GetAll, PropertiesChanged) and the interface as busctl sees it.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Broker1 properties and introspection")
struct PropertyIntrospectionTests {
    static func start() async throws -> BrokerFixture {
        try await BrokerFixture(builtin: [
            "a.json": TestManifest.json(id: "org.test.a"),
            "b.json": TestManifest.json(
                id: "org.test.b", requires: #"{"executables": ["no-such-program-xyz"]}"#),
        ])
    }

    @Test("Version and ActivityCount answer Get and GetAll; ActivityCount counts unavailable activities too")
    func getAndGetAll() async throws {
        let f = try await Self.start()
        let version = try await f.property("Version")
        #expect(version.string?.isEmpty == false)
        #expect(try await f.property("ActivityCount") == .uint32(2))

        let all = try await f.call(
            "GetAll", [.string(BrokerFixture.interface.rawValue)], interface: .properties)
        let properties = all.first?.vardict ?? [:]
        #expect(properties["Version"] == version)
        #expect(properties["ActivityCount"] == .uint32(2))
        #expect(
            await f.errorName(
                "Get", [.string(BrokerFixture.interface.rawValue), .string("Colour")], interface: .properties)
                == DBusError.unknownPropertyName)
        #expect(
            await f.errorName(
                "Set",
                [.string(BrokerFixture.interface.rawValue), .string("ActivityCount"), .variant(.uint32(9))],
                interface: .properties) != nil)
        #expect(try await f.property("ActivityCount") == .uint32(2))
    }

    @Test("PropertiesChanged announces ActivityCount on register and unregister")
    func activityCountChanges() async throws {
        let f = try await Self.start()
        let listener = try f.bus.connect()
        let changes = f.signals("PropertiesChanged", interface: .properties, on: listener)
        try await f.settle(on: listener)

        try await f.register("org.test.dynamic")
        let first = try await changes.next("PropertiesChanged after register")
        #expect(first.path == BrokerFixture.path)
        #expect(first.body.first?.string == BrokerFixture.interface.rawValue)
        #expect(first.body.dropFirst().first?.vardict?["ActivityCount"] == .uint32(3))

        try await f.call("UnregisterActivity", [.string("org.test.dynamic")])
        let second = try await changes.next("PropertiesChanged after unregister")
        #expect(second.body.dropFirst().first?.vardict?["ActivityCount"] == .uint32(2))
        #expect(try await f.property("ActivityCount") == .uint32(2))
    }

    /// The members of `org.activitybroker.Broker1` as API.md §3 and §10 fix them: kind, in/type, out.
    static let expected: [(name: String, kind: String, signature: String, result: String)] = [
        (".ListActivities", "method", "a{sv}a{sv}", "aa{sv}"),
        (".Perform", "method", "sa{sv}a{sv}", "o"),
        (".RegisterActivity", "method", "a{sv}", "-"),
        (".UnregisterActivity", "method", "s", "-"),
        (".ListRegistered", "method", "a{sv}", "aa{sv}"),
        (".Explain", "method", "sa{sv}", "bs"),
        (".ClearHistory", "method", "-", "-"),
        (".ClearAttributions", "method", "-", "-"),
        (".ReportAttributionTrigger", "method", "ss", "-"),
        (".Share", "method", "sa{sv}a{sv}", "o"),
        (".Browse", "method", "ssa{sv}", "o"),
        (".Prewarm", "method", "as", "-"),
        (".Version", "property", "s", ""),
        (".ActivityCount", "property", "u", ""),
        (".ActivitiesChanged", "signal", "-", "-"),
    ]

    @Test("busctl introspect shows every method, property and signal with the API.md signatures")
    func busctlIntrospect() async throws {
        let f = try await Self.start()
        let run = try await ChildProcess.run(
            "busctl",
            [
                "--address=\(f.bus.address)", "introspect", "--no-pager", BrokerFixture.busName.rawValue,
                BrokerFixture.path.rawValue,
            ],
            environment: f.bus.environment)
        #expect(run.termination == .exited(0), "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        #expect(
            lines.contains {
                $0.first == BrokerFixture.interface.rawValue && $0.dropFirst().first == "interface"
            })
        for interface in [
            "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
            "org.freedesktop.DBus.Properties",
        ] {
            #expect(lines.contains { $0.first == interface }, "\(interface) missing")
        }
        // busctl lists members after their interface; only ours start with these names.
        let ours = lines.drop { $0.first != BrokerFixture.interface.rawValue }.dropFirst()
            .prefix { $0.first?.hasPrefix(".") == true }
        #expect(ours.count == Self.expected.count, "\(run.standardOutput)")
        for member in Self.expected {
            let line = ours.first { $0.first == member.name }
            #expect(line != nil, "\(member.name) missing")
            guard let line, line.count >= 3 else { continue }
            #expect(line[1] == member.kind, "\(member.name)")
            #expect(line[2] == member.signature, "\(member.name)")
            if member.kind == "property" {
                #expect(line.contains("read-only") == false || member.name == ".Version", "\(line)")
                if member.name == ".ActivityCount" { #expect(line.contains("emits-change"), "\(line)") }
            } else {
                #expect(line.count > 3 && line[3] == member.result, "\(member.name): \(line)")
            }
        }
    }

    @Test("Job objects introspect as org.activitybroker.Job1")
    func jobIntrospection() async throws {
        let f = try await Self.start()
        let job = try await f.perform("org.test.a", ["url": .string("https://example.org/")])
        let xml = try await f.call("Introspect", path: job, interface: .introspectable).first?.string ?? ""
        #expect(xml.contains(#"<interface name="org.activitybroker.Job1">"#))
        for fragment in [
            #"<method name="Cancel">"#, #"<property name="ActivityId" type="s" access="read""#,
            #"<property name="State" type="s" access="read""#, #"<signal name="Finished">"#,
            #"<arg name="state" type="s""#, #"<arg name="results" type="a{sv}""#,
        ] {
            #expect(xml.contains(fragment), "\(fragment) missing in \(xml)")
        }
        let root = try await f.call("Introspect", path: "/", interface: .introspectable).first?.string ?? ""
        #expect(root.contains(#"<node name="org""#), "the object tree is walkable from /: \(root)")
    }
}
