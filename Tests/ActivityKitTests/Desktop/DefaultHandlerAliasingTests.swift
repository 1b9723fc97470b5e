// Tests of the default-handler step and of the manifest key that marks an alias.
import Foundation
import Testing

@testable import ActivityKit

@Suite struct DefaultHandlerAliasingTests {
    static func activity(_ id: String, alias: Bool = false, priority: Int = 0) throws -> Activity {
        Activity(
            id: try ActivityID(id), name: id, category: .action, origin: .builtin,
            perform: .open(try OpenSpec(template: try Template("{url}"))), priority: priority,
            defaultHandlerAlias: alias)
    }

    static let chromium = SchemeDefault(
        activityID: try? ActivityID("desktop.chromium"), name: "Open in Chromium",
        names: ["de": "In Chromium öffnen"])

    @Test func theAliasTakesTheDefaultsNamesAndTheDefaultRanksAmongApps() throws {
        let prepared = DefaultHandlerAliasing.prepare(
            [
                try Self.activity("org.example.browser", alias: true, priority: 5),
                try Self.activity("desktop.chromium"),
                try Self.activity("desktop.firefox"),
            ],
            schemeDefault: Self.chromium)
        #expect(prepared.map(\.name) == ["Open in Chromium", "desktop.chromium", "desktop.firefox"])
        #expect(prepared[0].names == ["de": "In Chromium öffnen"])
        #expect(prepared.map(\.priority) == [5, DefaultHandlerAliasing.defaultPriority, 0])
    }

    @Test func withoutADefaultNothingChanges() throws {
        let activities = [try Self.activity("org.example.browser", alias: true)]
        #expect(DefaultHandlerAliasing.prepare(activities, schemeDefault: nil) == activities)
    }

    @Test func theDefaultsOwnEntryIsFoldedOnlyWhereAnAliasIsOffered() throws {
        let alias = try ActivityID("org.example.browser")
        let own = try ActivityID("desktop.chromium")
        let other = try ActivityID("desktop.firefox")
        func fold(_ offered: [ActivityID], _ schemeDefault: SchemeDefault?) -> [ActivityID] {
            DefaultHandlerAliasing.fold(offered, id: { $0 }, aliases: [alias], schemeDefault: schemeDefault)
        }
        #expect(fold([alias, own, other], Self.chromium) == [alias, other])
        // Without the alias (excluded, say) the default's own entry stays.
        #expect(fold([own, other], Self.chromium) == [own, other])
        // Without a default for the scheme nothing is folded.
        #expect(fold([alias, own, other], nil) == [alias, own, other])
    }

    @Test func theManifestKeyIsABoolean() throws {
        func decode(_ extra: String) throws -> Activity {
            let json =
                #"{"id":"org.example.b","name":"B","category":"action","perform":{"open":"{url}"}"# + extra
                + "}"
            return try Manifest.decode(Array(json.utf8), fileName: "b.json", origin: .user)
        }
        #expect(try decode(#","default_handler_alias":true"#).defaultHandlerAlias)
        #expect(try !decode("").defaultHandlerAlias)
        #expect(
            caught { try decode(#","default_handler_alias":"yes""#) }?.message.contains(
                "default_handler_alias") == true)
    }

    @Test func theBuiltinOpenInBrowserIsAnAlias() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "extensions/open-in-browser.json")
        let activity = try Manifest.decode(
            Array(try Data(contentsOf: url)), fileName: "open-in-browser.json", origin: .builtin)
        #expect(activity.defaultHandlerAlias)
    }

    @Test func aDBusActivatableApplicationNeedsItsBusName() throws {
        let app = Activity(
            id: try ActivityID("desktop.org.example.Maps"), name: "Maps", category: .action, origin: .desktop,
            perform: .application(busName: "org.example.Maps", objectPath: "/org/example/Maps"))
        #expect(!app.availability(in: FixedEnvironment()).isAvailable)
        #expect(app.availability(in: FixedEnvironment(busNames: ["org.example.Maps"])).isAvailable)
    }
}
