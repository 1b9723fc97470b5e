// The broker's offer feature built without a bus: ActivityState and Offers on a queue of their own.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation
import Testing

@testable import ActivityBroker

/// `ActivityState` + `Offers` wired as `Broker` wires them, on a private queue, with a fixed
/// machine and usage: `ListActivities` and `ListRegistered` answered with no bus and no broker.
@Suite struct OffersTests {
    /// Programs on PATH: `present` only.
    struct Machine: Environment {
        func hasExecutable(_ name: String) -> Bool { name == "present" }
        func hasBusName(_ name: String) -> Bool { false }
        func hasVariable(_ name: String) -> Bool { false }
    }

    /// The parts, and what the state told its listener.
    final class Parts: @unchecked Sendable {
        let queue = DispatchQueue(label: "offers-test")
        let activities: ActivityState
        let offers: Offers
        var changes: [ActivityState.Change] = []
        /// The usage scores `offers` sees (written on the loop).
        let usage = Usage()

        final class Usage: @unchecked Sendable {
            var scores = UsageScores()
        }

        init(replyBudget: Int = OffersReplyCache.defaultBudget) {
            activities = ActivityState(machine: Machine(), queue: queue, log: BrokerLog(verbose: false) { _ in })
            offers = Offers(
                activities: activities, scores: { [usage] in usage.scores }, clock: { Timestamp(secondsSince1970: 0) },
                defaultLocale: nil, queue: queue, replyBudget: replyBudget)
            activities.onChange = { [unowned self] change in
                changes.append(change)
                // As the broker does (Broker.swift).
                switch change {
                case .activities: offers.invalidate(records: true)
                case .availability: offers.invalidate(records: false)
                case .registration(let versions): offers.invalidate(changed: versions)
                }
            }
        }

        /// Runs `body` on the parts' loop.
        func onLoop<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }

        /// `ListActivities` for `url`: the ids, in order.
        func offered(_ url: String, options: [String: Value] = [:], caller: String = ":1.1") throws -> [String] {
            let reply = try onLoop {
                try offers.listActivities(items: [ItemKey.url: .string(url)], options: options, caller: caller)
            }
            return (reply.values.first?.array ?? []).compactMap { $0.vardict?[RecordKey.id]?.string }
        }
    }

    static func activity(_ ident: String, category: ActivityCategory = .share, program: String? = nil) -> Activity {
        let perform: PerformSpec =
            if let program {
                .exec(try! ExecSpec(argv: [try! Template(program)]))
            } else {
                .open(try! OpenSpec(template: Template("https://share.example/?u={url}")))
            }
        return Activity(id: try! ActivityID(ident), name: ident, category: category, origin: .builtin, perform: perform)
    }

    static func layer(_ activities: [Activity]) -> [StaticLayer] {
        [StaticLayer(origin: .builtin, entries: Dictionary(uniqueKeysWithValues: activities.map { ("\($0.id).json", .activity($0)) }))]
    }

    @Test func listsTheAvailableMatchesAndDropsTheCachedListWhenActivitiesChange() throws {
        let parts = Parts()
        parts.onLoop {
            parts.activities.setStatic(
                Self.layer([Self.activity("b.share"), Self.activity("a.action", category: .action),
                            Self.activity("c.missing", program: "absent")]),
                schemeDefaults: [:])
        }
        #expect(try parts.offered("https://example.org/") == ["b.share", "a.action"])
        try parts.onLoop {
            try parts.activities.register(Self.activity("d.dynamic"), owner: ":1.9")
        }
        #expect(try parts.offered("https://example.org/") == ["b.share", "d.dynamic", "a.action"])
        // The owner is not offered its own activity unless it asks.
        #expect(try parts.offered("https://example.org/", caller: ":1.9") == ["b.share", "a.action"])
        #expect(
            try parts.offered("https://example.org/", options: [OptionKey.includeOwn: .boolean(true)], caller: ":1.9")
                == ["b.share", "d.dynamic", "a.action"])
        #expect(parts.onLoop { parts.changes.map(Self.kind) } == ["activities", "registration d.dynamic"])
    }

    /// A change as a word, and for a registration the ids of the versions it names.
    static func kind(_ change: ActivityState.Change) -> String {
        switch change {
        case .activities: "activities"
        case .availability: "availability"
        case .registration(let versions): (["registration"] + versions.map(\.id.rawValue)).joined(separator: " ")
        }
    }

    /// An activity for `hosts` and `paths` (any when nil), opening `https://share.example/?u={url}`.
    static func site(_ ident: String, hosts: [String]? = nil, paths: [String]? = nil) -> Activity {
        var activity = activity(ident)
        activity.match = try! MatchRule(hosts: hosts, pathPrefixes: paths)
        return activity
    }

    @Test("Pages of one site, ranked once for the site: each page gets what its own path matches")
    func pagesOfOneSiteGetWhatTheirPathMatches() throws {
        let parts = Parts()
        parts.onLoop {
            parts.activities.setStatic(
                Self.layer([
                    Self.site("a.any"), Self.site("b.news", hosts: ["*.example.org"], paths: ["/news/"]),
                    Self.site("c.watch", hosts: ["www.example.org"], paths: ["/watch"]),
                ]),
                schemeDefaults: [:])
        }
        #expect(try parts.offered("https://www.example.org/news/1") == ["a.any", "b.news"])
        #expect(try parts.offered("https://www.example.org/watch") == ["a.any", "c.watch"])
        #expect(try parts.offered("https://www.example.org/watchlist") == ["a.any"])
        #expect(try parts.offered("https://www.example.org/news/2") == ["a.any", "b.news"])
        #expect(try parts.offered("https://example.org/watch") == ["a.any"])
        // The same kept entries for a page whose URL is too long for the share URL: refused per call.
        let long = "https://www.example.org/news/" + String(repeating: "x", count: SharedURL.maxLength - 40)
        #expect(try parts.offered(long) == [])
        #expect(try parts.offered("https://www.example.org/news/3") == ["a.any", "b.news"])
    }

    @Test("A registration for another site keeps this site's ranking; one that matches it, changes or leaves is seen at once")
    func registrationsDropOnlyTheSitesTheyMatch() throws {
        let parts = Parts()
        parts.onLoop {
            parts.activities.setStatic(Self.layer([Self.site("a.any"), Self.site("b.org", hosts: ["example.org"])]), schemeDefaults: [:])
        }
        #expect(try parts.offered("https://example.org/") == ["a.any", "b.org"])
        #expect(parts.onLoop { parts.offers.cachedSites } == 1)

        // A storm's registration for some other host: the site's ranking stays.
        try parts.onLoop { try parts.activities.register(Self.site("c.other", hosts: ["other.example"]), owner: ":1.9") }
        #expect(parts.onLoop { parts.offers.cachedSites } == 1)
        #expect(try parts.offered("https://example.org/") == ["a.any", "b.org"])
        #expect(try parts.offered("https://other.example/") == ["a.any", "c.other"])

        // One that matches the site is offered on the next call.
        try parts.onLoop { try parts.activities.register(Self.site("d.org", hosts: ["*.example.org", "example.org"]), owner: ":1.9") }
        #expect(parts.onLoop { parts.offers.cachedSites } == 1, "example.org dropped, other.example kept")
        #expect(try parts.offered("https://example.org/") == ["a.any", "b.org", "d.org"])

        // Registered again with a new name: the answer carries the new record.
        var renamed = Self.site("d.org", hosts: ["example.org"])
        renamed.name = "Renamed"
        try parts.onLoop {
            try parts.activities.unregister(renamed.id, caller: ":1.9")
            try parts.activities.register(renamed, owner: ":1.9")
        }
        let names = try parts.onLoop {
            try parts.offers.listActivities(items: [ItemKey.url: .string("https://example.org/")], options: [:], caller: ":1.1")
        }.values.first?.array?.compactMap { $0.vardict?[RecordKey.name]?.string }
        #expect(names == ["a.any", "b.org", "Renamed"])

        // Gone at once when it leaves; and a site only the old version matched loses it too.
        try parts.onLoop { try parts.activities.unregister(renamed.id, caller: ":1.9") }
        #expect(try parts.offered("https://example.org/") == ["a.any", "b.org"])
        #expect(try parts.offered("https://other.example/") == ["a.any", "c.other"])
    }

    @Test("A use of an activity of the site re-ranks it; a use of another one leaves the ranking as it was")
    func usageReRanksOnlyTheSitesItTouches() throws {
        let parts = Parts()
        let now = Timestamp(secondsSince1970: 0)
        parts.onLoop {
            parts.activities.setStatic(
                Self.layer([Self.site("a.one"), Self.site("b.two"), Self.site("c.elsewhere", hosts: ["other.example"])]),
                schemeDefaults: [:])
        }
        #expect(try parts.offered("https://example.org/") == ["a.one", "b.two"])
        parts.onLoop { parts.usage.scores.recordUse(of: try! ActivityID("c.elsewhere"), at: now) }
        #expect(try parts.offered("https://example.org/x") == ["a.one", "b.two"])
        parts.onLoop { parts.usage.scores.recordUse(of: try! ActivityID("b.two"), at: now) }
        #expect(try parts.offered("https://example.org/y") == ["b.two", "a.one"])
        #expect(try parts.offered("https://other.example/") == ["b.two", "c.elsewhere", "a.one"])
    }

    @Test("A caller varying exclude and paths over many sites cannot push the kept replies past their budget")
    func varyingExcludeAndPathsStaysWithinTheReplyBudget() throws {
        let budget = 16 * 1024
        let parts = Parts(replyBudget: budget)
        // Every other activity only under /news/: the path changes which ones a call keeps.
        let ids = (0..<20).map { "app.n\($0)" }
        parts.onLoop {
            parts.activities.setStatic(
                Self.layer(ids.indices.map { Self.site(ids[$0], paths: $0.isMultiple(of: 2) ? nil : ["/news/"]) }),
                schemeDefaults: [:])
        }
        var peak = 0
        for call in 0..<600 {
            // A new set of kept entries nearly every call (1,024 exclusions × 2 paths × 7 sites).
            let excluded = ids.indices.filter { call >> ($0 % 10) & 1 == 1 }.map { ids[$0] }
            let news = call.isMultiple(of: 3)
            let offered = try parts.offered(
                "https://site\(call % 7).example/" + (news ? "news/\(call)" : "other"),
                options: [OptionKey.exclude: .stringArray(excluded)])
            let expected = ids.indices.filter { !excluded.contains(ids[$0]) && (news || $0.isMultiple(of: 2)) }
            #expect(offered.sorted() == expected.map { ids[$0] }.sorted())
            peak = max(peak, parts.onLoop { parts.offers.cachedReplyBytes })
        }
        // Filled, never past the budget.
        #expect(peak > budget / 2)
        #expect(peak <= budget)
        #expect(try parts.offered("https://site0.example/news/").sorted() == ids.sorted())
    }

    @Test func excludedAndAliasedActivitiesAreLeftOut() throws {
        let parts = Parts()
        let browser = Self.activity("firefox", category: .action)
        var alias = Self.activity("org.activitybroker.open-in-browser", category: .action)
        alias.defaultHandlerAlias = true
        parts.onLoop {
            parts.activities.setStatic(
                Self.layer([alias, browser, Self.activity("mail")]),
                schemeDefaults: ["https": SchemeDefault(activityID: browser.id, name: "Open in Firefox", names: [:])])
        }
        #expect(try parts.offered("https://example.org/") == ["mail", "org.activitybroker.open-in-browser"])
        #expect(
            try parts.offered(
                "https://example.org/",
                options: [OptionKey.exclude: .stringArray(["category:share", "org.activitybroker.open-in-browser"])])
                == ["firefox"])
    }

    @Test func badOptionsAndItemsAreInvalidArguments() {
        let parts = Parts()
        for (items, options) in [
            ([ItemKey.url: Value.string("not a url")], [String: Value]()),
            ([ItemKey.url: .string("https://example.org/")], ["nonsense": .boolean(true)]),
            ([ItemKey.url: .string("https://example.org/")], [OptionKey.exclude: .stringArray(["category:x"])]),
        ] {
            #expect(throws: ActivityError.self) {
                try parts.onLoop { try parts.offers.listActivities(items: items, options: options, caller: ":1.1") }
            }
        }
    }

    @Test func listRegisteredSaysWhyAnActivityIsUnavailable() throws {
        let parts = Parts()
        let records = try parts.onLoop {
            parts.activities.setStatic(
                Self.layer([Self.activity("runs", program: "present"), Self.activity("stuck", program: "absent")]),
                schemeDefaults: [:])
            return try parts.offers.listRegistered(options: [:], caller: ":1.1")
        }
        #expect(records.map { $0[RecordKey.id]?.string } == ["runs", "stuck"])
        #expect(records.map { $0[RecordKey.available]?.bool } == [true, false])
        #expect(records[1][RecordKey.reason]?.string?.contains("absent") == true)
    }

    @Test func ownerVisibilityHidesAnActivityFromEveryoneButItsOwner() throws {
        let parts = Parts()
        var own = Self.activity("app.own")
        own.origin = .dbus
        own.visibility = .owner
        var shared = Self.activity("app.shared")
        shared.origin = .dbus
        try parts.onLoop {
            parts.activities.setStatic(Self.layer([Self.activity("static")]), schemeDefaults: [:])
            try parts.activities.register(own, owner: ":1.7")
            try parts.activities.register(shared, owner: ":1.7")
        }
        let url = "https://example.org/"
        #expect(try parts.offered(url, caller: ":1.7") == ["app.own", "static"])
        #expect(try parts.offered(url, options: [OptionKey.includeOwn: .boolean(true)], caller: ":1.7") == ["app.own", "app.shared", "static"])
        #expect(try parts.offered(url, caller: ":1.8") == ["app.shared", "static"])
        #expect(try parts.offered(url, options: [OptionKey.includeOwn: .boolean(true)], caller: ":1.8") == ["app.shared", "static"])
        let items = try Items(url: url, title: nil, text: nil)
        let forOwner = try parts.onLoop { try parts.offers.offeredForShare(items: items, locale: nil, exclude: [], caller: ":1.7") }
        #expect(forOwner.map(\.id.rawValue) == ["app.own", "static"])
        let forOther = try parts.onLoop { try parts.offers.offeredForShare(items: items, locale: nil, exclude: ["static"], caller: ":1.8") }
        #expect(forOther.map(\.id.rawValue) == ["app.shared"])
        let registered = { (caller: String) in
            try parts.onLoop { try parts.offers.listRegistered(options: [:], caller: caller) }.compactMap { $0[RecordKey.id]?.string }
        }
        #expect(try registered(":1.7") == ["app.own", "app.shared", "static"])
        #expect(try registered(":1.8") == ["app.shared", "static"])
        #expect(throws: ActivityError.self) { try parts.onLoop { try parts.activities.lookUp("app.own", caller: ":1.8") } }
        #expect(try parts.onLoop { try parts.activities.lookUp("app.own", caller: ":1.7") }.id.rawValue == "app.own")
    }
}
