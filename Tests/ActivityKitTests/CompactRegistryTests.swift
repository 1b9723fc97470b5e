// The registry's compact tables: the static set's flat table and the match index's sorted any-host ids.

import Testing

@testable import ActivityKit

struct CompactRegistryTests {
    static func activity(
        _ name: String, schemes: [String]? = nil, hosts: [String]? = nil, names: [String: String] = [:]
    ) throws -> Activity {
        Activity(
            id: id(name), name: name, names: names, category: .share, origin: .system,
            match: try MatchRule(schemes: schemes, hosts: hosts),
            perform: .dbus(busName: "org.example.App", objectPath: "/org/example/App"))
    }

    static func layer(_ activities: [Activity], origin: ActivityOrigin = .system) -> StaticLayer {
        StaticLayer(
            origin: origin,
            entries: Dictionary(uniqueKeysWithValues: activities.map { ("\($0.id).json", .activity($0)) }))
    }

    @Test func theTableFindsEveryActivityByIdAndNoOther() throws {
        #expect(ActivityTable()[id("org.example.none")] == nil)
        #expect(ActivityTable([:])[id("org.example.none")] == nil)
        #expect(Array(ActivityTable().activities).isEmpty)
        // Ids of every length around the 15 bytes Swift keeps inline, with shared prefixes.
        let activities =
            try (0..<1_000).map { try Self.activity("org.example.app\($0)") }
            + [
                try Self.activity("a"), try Self.activity("b.c"),
                try Self.activity(String(repeating: "x", count: 255)),
            ]
        let table = ActivityTable(Dictionary(uniqueKeysWithValues: activities.map { ($0.id, $0) }))
        #expect(table.count == activities.count)
        for a in activities { #expect(table[a.id] == a) }
        for missing in [
            "org.example.app1000", "org.example.app", "org.example.app01", "c",
            String(repeating: "x", count: 254),
        ] {
            #expect(table[id(missing)] == nil)
        }
        #expect(Set(table.activities.map(\.id)) == Set(activities.map(\.id)))
    }

    @Test func aStaticActivityIsFoundShadowedAndBackAgain() throws {
        var registry = Registry()
        let statics = try (0..<300).map { try Self.activity("org.example.s\($0)", hosts: ["s\($0).example"]) }
        registry.setStaticLayers([Self.layer(statics)])
        #expect(registry.count == 300)
        for a in statics { #expect(registry.activity(a.id) == a) }
        #expect(registry.all.map(\.id) == statics.map(\.id).sorted())
        // A registration under a static id is refused; another id is added to `all`, in order.
        #expect(throws: ActivityError.self) { try registry.register(statics[0], owner: ":1.1") }
        try registry.register(try Self.activity("org.example.s150a", hosts: ["s150.example"]), owner: ":1.1")
        #expect(registry.count == 301)
        #expect(registry.all.map(\.id) == (statics.map(\.id) + [id("org.example.s150a")]).sorted())
        #expect(
            registry.matching(url("https://s150.example/")).map(\.id.rawValue) == [
                "org.example.s150", "org.example.s150a",
            ])
    }

    @Test func aConflictIsReportedWithBothFilesAndTheirLayers() throws {
        var registry = Registry()
        let user = StaticLayer(
            origin: .user, entries: ["mine.json": .activity(try Self.activity("org.example.same"))])
        let system = StaticLayer(
            origin: .system, entries: ["theirs.json": .activity(try Self.activity("org.example.same"))])
        registry.setStaticLayers([user, system])
        #expect(
            registry.conflicts == [
                "theirs.json (system): id 'org.example.same' is already defined by mine.json (user); ignored"
            ])
        #expect(registry.activity(id("org.example.same"))?.origin == .user)
    }

    @Test func anyHostIdsAreTheSameBuiltAtOnceOrOneByOne() throws {
        // 200 any-host activities on one app scheme and on http, registered in a scrambled order.
        let activities = try (0..<200).map { index in
            try Self.activity(
                "org.example.any\((index * 37) % 200)", schemes: index % 2 == 0 ? ["app"] : ["app", "https"])
        }
        var built = Registry()
        built.setStaticLayers([Self.layer(activities)])
        var registered = Registry()
        for a in activities { try registered.register(a, owner: ":1.\(a.id.rawValue.count % 3)") }
        let app = url("app://anything/x"), web = url("https://www.example.org/")
        #expect(built.matching(app).map(\.id) == activities.map(\.id).sorted())
        #expect(registered.matching(app).map(\.id) == built.matching(app).map(\.id))
        #expect(built.matching(web).count == 100)
        #expect(registered.matching(web).map(\.id) == built.matching(web).map(\.id))
        #expect(built.candidateCount(for: app) == 200)
        // Removed one by one (every third owner at once), nothing is left behind.
        for owner in [":1.0", ":1.1"] { _ = registered.removeAll(ownedBy: owner) }
        let left = activities.filter { $0.id.rawValue.count % 3 == 2 }.map(\.id).sorted()
        #expect(registered.matching(app).map(\.id) == left)
        #expect(registered.candidateCount(for: app) == left.count)
        for id in left { try registered.unregister(id, caller: ":1.2") }
        #expect(registered.candidateCount(for: app) == 0)
        #expect(registered.matching(web).isEmpty)
    }

    @Test func namesSurviveTheTableAsGiven() throws {
        // Empty, non-ASCII and many locales: the activity found is the activity stored.
        var names: [String: String] = ["pt": "", "ja": "共有する", "ar": "مشاركة", "sr@latin": "Podeli"]
        for index in 0..<40 { names["x\(index)_YY"] = "Name \(index) ü" }
        let activities = [
            try Self.activity("org.example.names", names: names),
            try Self.activity("org.example.empty", names: [:]),
        ]
        var registry = Registry()
        registry.setStaticLayers([Self.layer(activities)])
        #expect(registry.activity(id("org.example.names"))?.names == names)
        #expect(
            registry.activity(id("org.example.names"))?.localizedName(for: "pt_PT") == "org.example.names")
        #expect(registry.activity(id("org.example.names"))?.localizedName(for: "ja_JP.UTF-8") == "共有する")
        #expect(registry.activity(id("org.example.names"))?.localizedName(for: "x39_YY") == "Name 39 ü")
        #expect(registry.activity(id("org.example.empty"))?.names == [:])
    }
}
