// Tests of usage decay and ranking with a fake clock.

import Foundation
import Testing

@testable import ActivityKit

struct RankingTests {
    let t0 = Timestamp(secondsSince1970: 1_800_000_000)
    func days(_ d: Double) -> Timestamp { t0.adding(seconds: d * 86_400) }

    @Test func decayHalvesEveryFourteenDays() {
        var u = UsageScores()
        u.recordUse(of: id("a"), at: t0)
        u.recordUse(of: id("a"), at: t0)
        #expect(u.score(of: id("a"), at: t0) == 2)
        #expect(abs(u.score(of: id("a"), at: days(14)) - 1) < 1e-9)
        #expect(abs(u.score(of: id("a"), at: days(28)) - 0.5) < 1e-9)
        #expect(u.score(of: id("a"), at: days(-10)) == 2)  // a clock that went back does not raise it
        #expect(u.score(of: id("never"), at: t0) == 0)
        u.recordUse(of: id("a"), at: days(14))
        #expect(abs(u.score(of: id("a"), at: days(14)) - 2) < 1e-9)
    }

    @Test func decayAcrossHalfLivesChangesOrder() {
        let a = activity("a", name: "Alpha"), b = activity("b", name: "Beta")
        var u = UsageScores()
        for _ in 0..<5 { u.recordUse(of: a.id, at: t0) }
        u.recordUse(of: b.id, at: days(40))
        // At day 40: a = 5 * 2^(-40/14) ≈ 0.69 < b = 1.
        #expect(
            Ranking.order([a, b], usage: u, now: days(40), locale: nil).map(\.id.rawValue) == ["b", "a"])
        // At day 20 (before b's use): a ≈ 1.86, b = 0.
        var early = UsageScores()
        for _ in 0..<5 { early.recordUse(of: a.id, at: t0) }
        #expect(
            Ranking.order([b, a], usage: early, now: days(20), locale: nil).map(\.id.rawValue) == ["a", "b"])
        // Decay keeps the ratio of two scores, so later use keeps b ahead however long nothing happens.
        #expect(
            Ranking.order([a, b], usage: u, now: days(400), locale: nil).map(\.id.rawValue) == ["b", "a"])
    }

    @Test func tieBreakers() {
        let list = [
            activity("z.action", name: "Aardvark", category: .action, priority: 100),
            activity("low", name: "Alpha", priority: 0),
            activity("high", name: "Zulu", priority: 5),
            activity("e2", name: "Émile"),
            activity("e1", name: "emile"),
            activity("same2", name: "Same"),
            activity("same1", name: "Same"),
            activity("de", name: "Zebra", names: ["de": "Apfel"]),
            activity("used", name: "Zzz", category: .action),
        ]
        var u = UsageScores()
        u.recordUse(of: id("used"), at: t0)
        let order = Ranking.order(list, usage: u, now: t0, locale: "de_DE.UTF-8").map(\.id.rawValue)
        #expect(order == ["high", "low", "de", "e1", "e2", "same1", "same2", "used", "z.action"])
    }

    @Test func storedFormHoldsOnlyScoresAndTimes() throws {
        var u = UsageScores()
        u.recordUse(of: id("org.example.a"), at: t0)
        let data = try UsageFileFormat.encode(u)
        let obj = try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any]
        #expect(obj.map { Array($0.keys) } == ["entries"])
        let entry = (obj?["entries"] as? [String: Any])?["org.example.a"] as? [String: Any]
        #expect(entry.map { Set($0.keys) } == ["score", "lastUsed"])
        #expect(try UsageFileFormat.decode(data) == u)
    }

    @Test func pruneDropsJunkAndForgottenEntries() {
        var u = UsageScores(entries: [
            "nan": UsageEntry(score: .nan, lastUsed: t0),
            "neg": UsageEntry(score: -3, lastUsed: t0),
            "old": UsageEntry(score: 1, lastUsed: days(-1000)),
            "ok": UsageEntry(score: 1, lastUsed: t0),
        ])
        u.prune(at: t0)
        #expect(Set(u.entries.keys) == ["ok"])
        u.clear()
        #expect(u.entries.isEmpty)
    }
}
