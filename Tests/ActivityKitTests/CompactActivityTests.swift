// The compact activity: one shared record with copy on write, flat localized names, interning.

import Foundation
import Testing

@testable import ActivityKit

struct CompactActivityTests {
    static let names = [
        "de": "Teilen", "fr": "Partager", "ja": "共有する", "pt_BR": "Compartilhar", "sr@latin": "Podeli",
    ]

    static func manifest(_ index: Int) -> [UInt8] {
        Array(
            """
            {"id": "org.example.compact\(index)", "name": "Compact \(index)", "icon": "org.example.compact-icon",
             "names": {"de": "Kompakt \(index)", "fr": "Compact (fr) \(index)"}, "category": "share",
             "match": {"schemes": ["https"], "hosts": ["*.example.org"]},
             "perform": {"open": "https://share.example.org/post?u={url}&t={title}"}, "priority": \(index % 3)}
            """.utf8)
    }

    static func decoded(_ index: Int) throws -> Activity {
        try Manifest.decode(manifest(index), fileName: "compact\(index).json", origin: .system)
    }

    /// A write of all the fields (`\.self`) once carried the other record's names byte count,
    /// and `names` then read past the end of the shorter record.
    @Test func writingEveryFieldKeepsTheRecordsOwnNames() throws {
        var plain = try Self.decoded(1)
        plain.names = [:]
        let named = try Self.decoded(2)
        plain[dynamicMember: \.self] = named[dynamicMember: \.self]
        #expect(plain.names.isEmpty)
        #expect(plain.name == named.name)
        var renamed = named
        renamed[dynamicMember: \.self] = plain[dynamicMember: \.self]
        #expect(renamed.names == named.names)
    }

    @Test func localizedNamesAnswerLikeTheDictionary() {
        let flat = LocalizedNames(Self.names)
        #expect(flat.count == Self.names.count)
        #expect(flat.dictionary == Self.names)
        for (locale, name) in Self.names { #expect(flat[locale] == name) }
        for missing in ["", "d", "dz", "pt", "pt_BR.UTF-8", "zz"] { #expect(flat[missing] == nil) }
        #expect(LocalizedNames().isEmpty)
        #expect(LocalizedNames()["de"] == nil)
        // The same names in any insertion order are the same value.
        var reordered: [String: String] = [:]
        for key in Self.names.keys.sorted().reversed() { reordered[key] = Self.names[key] }
        #expect(LocalizedNames(reordered) == flat)
        #expect(LocalizedNames(reordered).hashValue == flat.hashValue)
    }

    @Test func localizedNamesKeepLongNamesWhoseLengthTakesSeveralBytes() {
        // Lengths are LEB128: 127 is one byte, 128 and 20,000 two and three.
        let names = [
            "de": String(repeating: "ä", count: 64), "fr": String(repeating: "f", count: 127),
            "ja": String(repeating: "日", count: 6_667), "pt": "",
            String(repeating: "l", count: 130): "long locale",
        ]
        let flat = LocalizedNames(names)
        #expect(flat.count == names.count)
        #expect(flat.dictionary == names)
        for (locale, name) in names { #expect(flat[locale] == name) }
    }

    @Test func activityKeepsEveryFieldAsGiven() throws {
        let a = Activity(
            id: id("org.example.fields"), name: "Fields", names: Self.names, icon: "icon", category: .action,
            origin: .builtin, match: try MatchRule(hosts: ["example.org"]),
            requires: Requirements(executables: ["sh"]),
            perform: .dbus(busName: "org.example.App", objectPath: "/org/example/App"), priority: 7,
            owner: ":1.5",
            defaultHandlerAlias: true, visibility: .owner)
        #expect(a.id == id("org.example.fields"))
        #expect(a.name == "Fields")
        #expect(a.names == Self.names)
        #expect(a.localizedNames == LocalizedNames(Self.names))
        #expect(a.icon == "icon")
        #expect(a.category == .action)
        #expect(a.origin == .builtin)
        #expect(a.match == (try MatchRule(hosts: ["example.org"])))
        #expect(a.requires == Requirements(executables: ["sh"]))
        #expect(a.perform == .dbus(busName: "org.example.App", objectPath: "/org/example/App"))
        #expect(a.priority == 7)
        #expect(a.owner == ":1.5")
        #expect(a.defaultHandlerAlias)
        #expect(a.visibility == .owner)
        #expect(a.localizedName(for: "sr_RS@latin") == "Podeli")
    }

    @Test func aCopyChangesAloneAndEqualFieldsAreEqual() throws {
        let original = try Self.decoded(1)
        var copy = original
        #expect(copy == original)
        copy.names = ["de": "Anders"]
        copy.priority = 99
        copy.owner = ":1.9"
        #expect(original.names == ["de": "Kompakt 1", "fr": "Compact (fr) 1"])
        #expect(original.priority == 1)
        #expect(original.owner == nil)
        #expect(copy != original)
        // Built separately, equal field by field: equal values with equal hashes.
        let again = try Self.decoded(1)
        #expect(again == original)
        #expect(again.hashValue == original.hashValue)
        #expect(Set([original, again, copy]).count == 2)
    }

    @Test func interningChangesNoValueAndSharesEqualParts() throws {
        var interner = ActivityInterner()
        let first = try Self.decoded(1), second = try Self.decoded(2)
        let a = interner.intern(first), b = interner.intern(second)
        #expect(a == first)
        #expect(b == second)
        // The equal match rules and perform specs now share one copy.
        #expect(Self.sameStorage(a.match.schemes, b.match.schemes))
        #expect(!Self.sameStorage(first.match.schemes, second.match.schemes))
        guard case .open(let specA) = a.perform, case .open(let specB) = b.perform else {
            Issue.record("expected open specs")
            return
        }
        #expect(Self.sameStorage(specA.template.segments, specB.template.segments))
        // A long string is shared; different ones stay apart.
        #expect(interner.intern(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
        #expect(interner.intern("org.example.compact-icon") == a.icon)
    }

    @Test func registryGivesTheSameActivitiesForInternedManifests() throws {
        var interner = ActivityInterner()
        let plain = try (0..<20).map(Self.decoded)
        let interned = plain.map { interner.intern($0) }
        var registryPlain = Registry(), registryInterned = Registry()
        func layer(_ activities: [Activity]) -> StaticLayer {
            StaticLayer(
                origin: .system,
                entries: Dictionary(uniqueKeysWithValues: activities.map { ("\($0.id).json", .activity($0)) })
            )
        }
        registryPlain.setStaticLayers([layer(plain)])
        registryInterned.setStaticLayers([layer(interned)])
        #expect(registryPlain.all == registryInterned.all)
        #expect(registryInterned.count == 20)
        let page = url("https://www.example.org/a")
        #expect(registryPlain.matching(page) == registryInterned.matching(page))
        #expect(registryInterned.matching(page).count == 20)
    }

    @Test func matchIndexKeepsOneOrManyActivitiesPerHostThroughRegistrationsAndRemovals() throws {
        func hosted(_ name: String, _ hosts: [String]) throws -> Activity {
            Activity(
                id: id("org.example.\(name)"), name: name, category: .share, origin: .dbus,
                match: try MatchRule(hosts: hosts),
                perform: .dbus(busName: "org.example.App", objectPath: "/org/example/App"))
        }
        var registry = Registry()
        let page = url("https://news.site.example/a")
        let ids = { Set(registry.matching(page).map(\.id.rawValue)) }
        try registry.register(try hosted("one", ["news.site.example"]), owner: ":1.1")
        #expect(ids() == ["org.example.one"])
        // A second and a third id on the same host key, and one through a glob.
        try registry.register(try hosted("two", ["news.site.example"]), owner: ":1.1")
        try registry.register(try hosted("three", ["news.site.example", "*.site.example"]), owner: ":1.2")
        #expect(ids() == ["org.example.one", "org.example.two", "org.example.three"])
        try registry.unregister(id("org.example.one"), caller: ":1.1")
        #expect(ids() == ["org.example.two", "org.example.three"])
        try registry.unregister(id("org.example.two"), caller: ":1.1")
        #expect(ids() == ["org.example.three"])
        // Back to one, then added to again: still found, and gone once removed.
        try registry.register(try hosted("four", ["news.site.example"]), owner: ":1.1")
        #expect(ids() == ["org.example.three", "org.example.four"])
        _ = registry.removeAll(ownedBy: ":1.2")
        #expect(ids() == ["org.example.four"])
        #expect(registry.matching(url("https://other.site.example/")).isEmpty)
        try registry.unregister(id("org.example.four"), caller: ":1.1")
        #expect(ids().isEmpty)
    }

    @Test func namesKeptInTheRecordChangeApartFromTheFields() throws {
        let original = try Self.decoded(3)
        // A field written on a copy keeps the names; names written on a copy keep the fields.
        var renamed = original
        renamed.priority = 42
        #expect(renamed.names == original.names)
        #expect(renamed.localizedName(for: "de") == "Kompakt 3")
        var relabelled = original
        relabelled.names = ["ja": "共有する", "ar": "مشاركة", "pt": ""]
        #expect(relabelled.priority == original.priority)
        #expect(relabelled.localizedName(for: "ja_JP.UTF-8") == "共有する")
        #expect(relabelled.localizedName(for: "pt_BR") == "Compact 3")
        #expect(relabelled.localizedName(for: "de") == "Compact 3")
        #expect(original.localizedName(for: "de") == "Kompakt 3")
        // No names at all, and an empty name, are different values.
        var none = original
        none.names = [:]
        #expect(none.localizedNames.isEmpty)
        #expect(none.localizedName(for: "de") == "Compact 3")
        var empty = original
        empty.names = ["de": ""]
        #expect(empty != none)
        #expect(empty.localizedName(for: "de") == "Compact 3")
        // Equal names set either way make equal activities with equal hashes.
        var many: [String: String] = [:]
        for index in 0..<60 { many["l\(index)_ZZ@m\(index % 3)"] = String(repeating: "名", count: index) }
        var a = original, b = original
        a.names = many
        b.localizedNames = LocalizedNames(many)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.names == many)
        #expect(a.localizedName(for: "l59_ZZ.UTF-8@m2") == String(repeating: "名", count: 59))
        #expect(a != original)
    }

    private static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
