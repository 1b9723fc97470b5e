// What the static catalog keeps of a read to tell whether the next one changed anything: a digest.
import ActivityKit
import Testing

@testable import ActivityBroker

struct StaticCatalogDigestTests {
    static func activity(_ id: String, name: String = "Name", names: [String: String] = [:]) throws
        -> Activity
    {
        Activity(
            id: try ActivityID(id), name: name, names: names, category: .share, origin: .system,
            perform: .dbus(busName: "org.example.App", objectPath: "/org/example/App"))
    }

    static func layers(_ entries: [String: StaticEntry]) -> [StaticLayer] {
        [StaticLayer(origin: .system, entries: entries), StaticLayer(origin: .builtin)]
    }

    @Test func theSameCatalogReadTwiceHasTheSameDigest() throws {
        let names = ["de": "Teilen", "ja": "共有する", "pt": ""]
        let first = Self.layers([
            "a.json": .activity(try Self.activity("org.example.a", names: names)), "m.json": .masked,
        ])
        let again = Self.layers([
            "m.json": .masked, "a.json": .activity(try Self.activity("org.example.a", names: names)),
        ])
        #expect(StaticCatalog.Applied(first, [:]) == StaticCatalog.Applied(again, [:]))
    }

    @Test func anyChangeChangesTheDigest() throws {
        let base = StaticCatalog.Applied(
            Self.layers(["a.json": .activity(try Self.activity("org.example.a"))]), [:])
        let changed: [[StaticLayer]] = [
            Self.layers(["a.json": .activity(try Self.activity("org.example.a", name: "Other"))]),
            Self.layers(["a.json": .activity(try Self.activity("org.example.a", names: ["de": "Name"]))]),
            Self.layers(["b.json": .activity(try Self.activity("org.example.a"))]),
            Self.layers(["a.json": .masked]),
            Self.layers([:]),
            [StaticLayer(origin: .user, entries: ["a.json": .activity(try Self.activity("org.example.a"))])],
        ]
        for layers in changed { #expect(StaticCatalog.Applied(layers, [:]) != base) }
        let scheme = SchemeDefault(activityID: nil, name: "Open in App", names: [:])
        #expect(
            StaticCatalog.Applied(
                Self.layers(["a.json": .activity(try Self.activity("org.example.a"))]), ["app": scheme])
                != base)
    }
}
