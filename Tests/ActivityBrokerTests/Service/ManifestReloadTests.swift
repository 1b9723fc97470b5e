// Manifests at run time: new files, masking, precedence and broken files, seen by the real broker.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Manifest directories at run time")
struct ManifestReloadTests {
    static let url = "https://example.org/"

    @Test("A manifest added to the user directory is announced with ActivitiesChanged and offered")
    func addedManifest() async throws {
        let f = try await BrokerFixture(builtin: ["a.json": TestManifest.json(id: "org.test.a")])
        let changes = f.signals("ActivitiesChanged", interface: BrokerFixture.interface)
        try await f.settle()
        try f.write(
            TestManifest.json(id: "org.test.user", name: "User"),
            to: "data/activity-broker/extensions/user.json")
        _ = try await changes.next("ActivitiesChanged after adding a manifest")
        // The first change may come from the temporary file appearing; the next brings the file.
        try await waitUntil("user.json to be offered") {
            Set(try await f.offered(Self.url)) == ["org.test.a", "org.test.user"]
        }
        #expect(try await f.registered()["org.test.user"]?["origin"] == .string("user"))
        #expect(try await f.property("ActivityCount") == .uint32(2))

        // Removing it takes it away again.
        try FileManager.default.removeItem(atPath: f.userExtensions + "/user.json")
        try await waitUntil("user.json to be forgotten") { try await f.registered()["org.test.user"] == nil }
    }

    @Test("An empty file of the same name in the user directory masks a builtin manifest")
    func maskBuiltin() async throws {
        let f = try await BrokerFixture(builtin: [
            "a.json": TestManifest.json(id: "org.test.a"), "b.json": TestManifest.json(id: "org.test.b"),
        ])
        #expect(try await f.offered(Self.url) == ["org.test.a", "org.test.b"])
        let changes = f.signals("ActivitiesChanged", interface: BrokerFixture.interface)
        try await f.settle()
        try f.write("", to: "data/activity-broker/extensions/a.json")
        _ = try await changes.next("ActivitiesChanged after masking")
        try await waitUntil("a.json to be masked") { try await f.offered(Self.url) == ["org.test.b"] }
        #expect(try await f.registered()["org.test.a"] == nil)
    }

    @Test("Precedence: user over system over builtin, by file name")
    func precedence() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write(TestManifest.json(id: "org.test.a", name: "Builtin"), to: "builtin/a.json")
        try f.write(
            TestManifest.json(id: "org.test.a", name: "System"),
            to: "system/activity-broker/extensions/a.json")
        try f.write(
            TestManifest.json(id: "org.test.b", name: "System B"),
            to: "system/activity-broker/extensions/b.json")
        try f.write(
            TestManifest.json(id: "org.test.b", name: "User B"), to: "data/activity-broker/extensions/b.json")
        try await f.startBroker()
        let records = try await f.registered()
        #expect(records["org.test.a"]?["name"] == .string("System"))
        #expect(records["org.test.a"]?["origin"] == .string("system"))
        #expect(records["org.test.b"]?["name"] == .string("User B"))
        #expect(records["org.test.b"]?["origin"] == .string("user"))
    }

    @Test("A broken manifest is skipped with one log line naming the file and the field; the others load")
    func brokenManifest() async throws {
        let f = try await BrokerFixture(builtin: [
            "good.json": TestManifest.json(id: "org.test.good"),
            "broken.json": TestManifest.json(id: "org.test.broken", category: "sideways"),
            "notjson.json": "{ this is not json",
        ])
        #expect(try await f.offered(Self.url) == ["org.test.good"])
        let lines = f.log.split(separator: "\n")
        let broken = lines.filter { $0.contains("broken.json") }
        #expect(broken.count == 1, "\(f.log)")
        #expect(broken.first?.contains("category") == true, "\(broken)")
        #expect(lines.filter { $0.contains("notjson.json") }.count == 1, "\(f.log)")

        // Breaking a good file at run time: it goes, with one line; the broker keeps serving.
        try f.write(
            TestManifest.json(id: "org.test.good", perform: #"{"exec": []}"#), to: "builtin/good.json")
        try await waitUntil("good.json to be skipped") { try await f.registered().isEmpty }
        try await waitUntil("the log line about good.json") { f.log.contains("good.json") }
        let good = f.log.split(separator: "\n").filter { $0.contains("good.json") }
        #expect(good.count == 1, "\(f.log)")
        #expect(good.first?.contains("perform") == true, "\(good)")
        #expect(f.broker.termination == nil)
    }

    @Test("A manifest with a registered id does not steal it from its dynamic owner")
    func manifestAfterRegistration() async throws {
        let f = try await BrokerFixture()
        let app = try f.bus.connect()
        try await f.register("org.test.same", name: "Dynamic", on: app)
        try f.write(
            TestManifest.json(id: "org.test.same", name: "Static"),
            to: "data/activity-broker/extensions/same.json")
        try f.write(TestManifest.json(id: "org.test.flag"), to: "data/activity-broker/extensions/flag.json")
        try await waitUntil("flag.json to load") { try await f.registered()["org.test.flag"] != nil }
        let record = try await f.registered()["org.test.same"]
        #expect(record?["name"] == .string("Dynamic"))
        #expect(record?["origin"] == .string("dbus"))
    }

    @Test("A user extensions directory created after the start is watched too (a fresh account has none)")
    func directoryCreatedLater() async throws {
        let f = try await BrokerFixture(start: false)
        try FileManager.default.removeItem(atPath: "\(f.root)/data/activity-broker")
        try await f.startBroker()
        let changes = f.signals("ActivitiesChanged", interface: BrokerFixture.interface)
        try await f.settle()
        try FileManager.default.createDirectory(atPath: f.userExtensions, withIntermediateDirectories: true)
        try f.write(TestManifest.json(id: "org.test.late"), to: "data/activity-broker/extensions/late.json")
        _ = try await changes.next("ActivitiesChanged after the directory appeared")
        try await waitUntil("late.json to load") { try await f.offered(Self.url) == ["org.test.late"] }
    }
}
