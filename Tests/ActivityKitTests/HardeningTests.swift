// Issue 11, the pure halves of items 2, 6, 8 and 17: availability re-checked by dependency,
// locale names bounded, usage scores pruned, and the one refusal check offers and Perform share.
import Foundation
import Testing

@testable import ActivityKit

@Suite("Hardening (pure)")
struct HardeningTests {
    /// An environment counting its bus-name lookups.
    final class CountingEnvironment: Environment, @unchecked Sendable {
        var busNames: Set<String> = []
        var busNameLookups = 0
        func hasExecutable(_ name: String) -> Bool { true }
        func hasBusName(_ name: String) -> Bool {
            busNameLookups += 1
            return busNames.contains(name)
        }
        func hasVariable(_ name: String) -> Bool { false }
    }

    func needing(_ name: String, id ident: String) -> Activity {
        var a = activity(ident)
        a.requires = Requirements(dbusNames: [name])
        return a
    }

    @Test("Item 2: a bus name change re-checks only the activities that depend on that name")
    func nameChangeRechecksOnlyDependents() {
        var registry = Registry()
        var entries: [String: StaticEntry] = [:]
        for n in 0..<2_000 { entries["a\(n).json"] = .activity(needing("org.test.N\(n)", id: "org.test.a\(n)")) }
        registry.setStaticLayers([StaticLayer(origin: .builtin, entries: entries)])
        let env = CountingEnvironment()
        var cache = AvailabilityCache()
        for a in registry.all { _ = cache.availability(of: a, in: env) }
        #expect(env.busNameLookups == 2_000)

        env.busNameLookups = 0
        let unrelated = cache.machineChanged(.busNames(["org.test.Unrelated"]), registry, in: env)
        #expect(!unrelated)
        #expect(env.busNameLookups == 0, "an unrelated name re-checked \(env.busNameLookups) activities")

        env.busNames = ["org.test.N7"]
        let related = cache.machineChanged(.busNames(["org.test.N7"]), registry, in: env)
        #expect(related)
        #expect(env.busNameLookups == 1)
        #expect(cache.availability(of: registry.activity(id("org.test.a7"))!, in: env).isAvailable)
        #expect(cache.count == 2_000)
        let programs = cache.machineChanged(.programs, registry, in: env)
        #expect(!programs, "none of them looks for programs")
    }

    @Test("Item 6: locale names are at most 64 bytes of letters, digits and _-@.")
    func localeNames() {
        for good in ["de", "pt_BR", "sr_RS.UTF-8@latin", String(repeating: "x", count: 64)] {
            #expect(caught { try LocaleName.validate(good, what: "locale") } == nil, "\(good)")
        }
        for bad in ["", String(repeating: "x", count: 65), "de\u{1B}", "de DE", "../x", "é"] {
            #expect(caught { try LocaleName.validate(bad, what: "locale") }?.name == "InvalidArgument", "\(bad)")
        }
    }

    @Test("Item 8: scores are pruned to the cap, least used first, and recording past the cap prunes")
    func scoresArePruned() {
        let now = Timestamp.now()
        var scores = UsageScores()
        for n in 0..<(UsageScores.maxEntries + 500) {
            scores.entries["org.test.t\(n)"] = UsageEntry(score: 1, lastUsed: now.adding(seconds: -Double(n)))
        }
        scores.entries["org.test.fav"] = UsageEntry(score: 40, lastUsed: now.adding(seconds: -86_400))
        let dropped = scores.prune(keepingAtMost: UsageScores.maxEntries, at: now)
        #expect(dropped == 501)
        #expect(scores.entries.count == UsageScores.maxEntries)
        #expect(scores.entries["org.test.fav"] != nil)
        #expect(scores.entries["org.test.t0"] != nil, "the most recent of equal scores stays")
        #expect(scores.entries["org.test.t\(UsageScores.maxEntries + 499)"] == nil, "the oldest goes")

        for n in 0..<50 { scores.recordUse(of: id("org.test.new\(n)"), at: now) }
        #expect(scores.entries.count <= UsageScores.maxEntries)
        #expect(scores.entries["org.test.new49"] != nil)
        let encoded = try? UsageFileFormat.encode(scores)
        #expect((encoded?.count ?? .max) < 1 << 20, "the file stays far below the store's size limit")
    }

    @Test("Item 17: an open activity refuses items whose built URL would exceed 32 KiB; Explain agrees")
    func refusalIsOneCheck() throws {
        let a = activity("org.test.open")
        let long = items("https://example.org/?" + String(repeating: "&=", count: 6_000))
        let short = items("https://example.org/?a=b")
        #expect(Activity.refusal(of: a.perform, for: short) == nil)
        #expect(Activity.refusal(of: a.perform, for: long)?.name == "InvalidArgument")
        #expect(!Explainer.explain(a, items: long, env: FixedEnvironment()).applies)
        #expect(Explainer.explain(a, items: short, env: FixedEnvironment()).applies)
    }
}
