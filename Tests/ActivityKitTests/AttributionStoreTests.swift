// AttributionStore's rules with a fake clock and a seeded random source (API.md §11).
import ActivityFuzzing
import Foundation
import Testing

@testable import ActivityKit

@Suite("Attribution store rules")
struct AttributionStoreTests {
    /// 2026-12-01 10:00:00 UTC.
    static let t0 = 1_796_119_200
    static let hour = 3600
    static let day = 86_400

    static func click(
        _ source: String = "ads.example", _ destination: String = "shop.example", id: UInt8 = 7,
        at now: Int = t0
    )
        -> AttributionClick
    {
        AttributionClick(
            pair: AttributionSitePair(source: source, destination: destination), sourceID: id,
            expires: AttributionDay(containing: now).adding(days: AttributionClick.lifetimeDays))
    }

    static func trigger(_ data: UInt8, priority: UInt8 = 0, source: String = "ads.example")
        -> AttributionTrigger
    {
        AttributionTrigger(sourceSite: source, triggerData: data, priority: priority)
    }

    @Test(
        "Click, trigger: one report for the pair, due 24–48 h later, with the click's id; the click is used up"
    )
    func clickThenTrigger() {
        var random = SplitMix64(seed: 1)
        var store = AttributionStore()
        store.record(Self.click(), now: Self.t0)
        let now = Self.t0 + 2 * Self.hour
        let outcome = store.record(Self.trigger(3), destinationSite: "shop.example", now: now, using: &random)
        guard case .scheduled(let report) = outcome else {
            Issue.record("expected a report, got \(outcome)")
            return
        }
        #expect(report.sourceID == 7 && report.triggerData == 3 && report.sourceSite == "ads.example")
        #expect((now + Self.day...now + 2 * Self.day).contains(report.sendAfter))
        #expect(store.clicks.isEmpty && store.reports == [report])
        #expect(store.dueReports(now: report.sendAfter - 1).isEmpty)
        #expect(store.dueReports(now: report.sendAfter) == [report])
        #expect(store.nextSendTime == report.sendAfter)
        #expect(store.answered(report.pair, by: [.source, .destination], now: report.sendAfter) == .delivered)
        #expect(store.isEmpty && store.nextSendTime == nil)
    }

    @Test("The delay is uniform over 24–48 h: all of it used, nothing outside")
    func delaySpread() {
        var random = SplitMix64(seed: 42)
        var buckets = [Int](repeating: 0, count: 24)
        for i in 0..<2400 {
            var store = AttributionStore()
            store.record(Self.click(id: UInt8(i % 256)), now: Self.t0)
            guard
                case .scheduled(let report) = store.record(
                    Self.trigger(1), destinationSite: "shop.example", now: Self.t0, using: &random)
            else {
                Issue.record("no report")
                return
            }
            let delay = report.sendAfter - Self.t0
            #expect((Self.day...2 * Self.day).contains(delay))
            buckets[min(23, (delay - Self.day) / Self.hour)] += 1
        }
        // 100 expected per hour; a gross bias (e.g. a fixed delay) leaves buckets near 0.
        #expect(buckets.allSatisfy { $0 > 50 && $0 < 150 }, "\(buckets)")
    }

    @Test(
        "Triggers that do nothing: unknown pair, other destination, after 7 days",
        arguments: [
            ("other.example", "shop.example", 1),  // unknown source site
            ("ads.example", "elsewhere.example", 1),  // page on another site
            ("ads.example", "shop.example", 7 * 86_400),  // seven days later: expired
            ("ads.example", "shop.example", 8 * 86_400),
        ])
    func nothing(source: String, destination: String, after: Int) {
        var random = SplitMix64(seed: 3)
        var store = AttributionStore()
        store.record(Self.click(), now: Self.t0)
        let outcome = store.record(
            Self.trigger(1, source: source), destinationSite: destination, now: Self.t0 + after,
            using: &random)
        #expect(outcome == .noClick)
        #expect(store.reports.isEmpty)
    }

    @Test("A click counts for the rest of its day and six more")
    func expiry() {
        let click = Self.click()
        #expect(click.expires.description == "2026-12-08")
        #expect(click.isLive(at: Self.t0 + 6 * Self.day))
        #expect(!click.isLive(at: AttributionDay(containing: Self.t0).adding(days: 7).start))
        var store = AttributionStore()
        store.record(click, now: Self.t0)
        store.removeExpired(now: Self.t0 + 7 * Self.day)
        #expect(store.clicks.isEmpty)
    }

    @Test("Priority: a higher one replaces the pending data, an equal or lower one does not")
    func priority() {
        var random = SplitMix64(seed: 5)
        var store = AttributionStore()
        store.record(Self.click(), now: Self.t0)
        let now = Self.t0 + Self.hour
        guard
            case .scheduled(let first) = store.record(
                Self.trigger(2, priority: 10), destinationSite: "shop.example", now: now, using: &random)
        else {
            Issue.record("no report")
            return
        }
        let table: [(UInt8, UInt8, AttributionStore.TriggerOutcome, UInt8)] = [
            (9, 5, .keptPriority, 2),  // lower
            (9, 10, .keptPriority, 2),  // equal
            (11, 20, .raisedPriority, 11),  // higher wins
            (4, 15, .keptPriority, 11),
        ]
        for (data, priority, outcome, expected) in table {
            let got = store.record(
                Self.trigger(data, priority: priority), destinationSite: "shop.example", now: now,
                using: &random)
            #expect(got == outcome)
            #expect(store.reports.count == 1 && store.reports[0].triggerData == expected)
        }
        #expect(store.reports[0].sendAfter == first.sendAfter, "a raised priority keeps the send time")
        store.answered(first.pair, by: [.source, .destination], now: now)
        let after = store.record(
            Self.trigger(1, priority: 63), destinationSite: "shop.example", now: now, using: &random)
        #expect(after == .noClick, "after the report, the click is gone")
    }

    @Test("One click per site pair: a new click replaces the old")
    func replaces() {
        var store = AttributionStore()
        store.record(Self.click(id: 1), now: Self.t0)
        store.record(Self.click("ads.example", "other.example", id: 2), now: Self.t0)
        store.record(Self.click(id: 3), now: Self.t0 + Self.hour)
        #expect(store.clicks.map(\.sourceID) == [2, 3])
    }

    @Test("Caps: the oldest click and the oldest report make room")
    func caps() {
        var random = SplitMix64(seed: 9)
        var store = AttributionStore()
        for i in 0..<(AttributionStore.clickCapacity + 5) {
            store.record(Self.click("s\(i).example", "d.example"), now: Self.t0)
        }
        #expect(store.clicks.count == AttributionStore.clickCapacity)
        #expect(store.clicks.first?.sourceSite == "s5.example")
        for i in 5..<(AttributionStore.reportCapacity + 10) {
            if i >= AttributionStore.clickCapacity + 5 {
                store.record(Self.click("s\(i).example", "d.example"), now: Self.t0)
            }
            _ = store.record(
                Self.trigger(1, source: "s\(i).example"), destinationSite: "d.example", now: Self.t0,
                using: &random)
        }
        #expect(store.reports.count == AttributionStore.reportCapacity)
        #expect(store.reports.first?.sourceSite == "s10.example")
    }

    @Test("Overdue reports are all due at once; a failure retries once an hour later, then drops")
    func catchUpAndRetry() {
        var random = SplitMix64(seed: 11)
        var store = AttributionStore()
        for source in ["a.example", "b.example"] {
            store.record(Self.click(source, "shop.example"), now: Self.t0)
            _ = store.record(
                Self.trigger(1, source: source), destinationSite: "shop.example", now: Self.t0, using: &random
            )
        }
        let late = Self.t0 + 10 * Self.day
        #expect(store.dueReports(now: late).count == 2)
        let pair = store.reports[0].pair
        #expect(store.answered(pair, by: [], now: late) == .retrying)
        #expect(store.reports[0].sendAfter == late + AttributionReport.retryDelay)
        #expect(store.dueReports(now: late).count == 1)
        #expect(store.answered(pair, by: [], now: late + AttributionReport.retryDelay) == .dropped)
        #expect(
            store.reports.map(\.pair) == [
                AttributionSitePair(source: "b.example", destination: "shop.example")
            ])
        store.clear()
        #expect(store.isEmpty)
    }

    /// A store with one report for (ads.example, shop.example), triggered at `now`.
    static func reported(now: Int = t0, seed: UInt64 = 12) -> AttributionStore {
        var random = SplitMix64(seed: seed)
        var store = AttributionStore()
        store.record(click(at: now), now: now)
        _ = store.record(trigger(4), destinationSite: "shop.example", now: now, using: &random)
        return store
    }

    @Test("An endpoint that answered is not posted to again: the retry goes only where it failed")
    func retryOnlyWhereItFailed() {
        var store = Self.reported()
        let report = store.reports[0]
        #expect(report.unanswered == [.source, .destination])
        let late = report.sendAfter
        #expect(store.answered(report.pair, by: [.source], now: late) == .retrying)
        #expect(store.reports[0].unanswered == [.destination])
        #expect(store.reports[0].attempts == 1)
        #expect(store.answered(report.pair, by: [.destination], now: late + AttributionReport.retryDelay) == .delivered)
        #expect(store.isEmpty)
        #expect(store.answered(report.pair, by: [.destination], now: late) == .gone)
        // The last attempt failing where it was still missing drops the report.
        var failing = Self.reported()
        failing.answered(report.pair, by: [.destination], now: late)
        #expect(failing.answered(report.pair, by: [], now: late + AttributionReport.retryDelay) == .dropped)
        #expect(failing.isEmpty)
    }

    @Test("Once an endpoint has the report, a higher priority no longer changes it (both get the same data)")
    func partlySentKeepsItsData() {
        var random = SplitMix64(seed: 13)
        var store = Self.reported()
        store.answered(store.reports[0].pair, by: [.source], now: Self.t0 + 2 * Self.day)
        let outcome = store.record(
            Self.trigger(9, priority: 63), destinationSite: "shop.example", now: Self.t0 + 2 * Self.day,
            using: &random)
        #expect(outcome == .keptPriority)
        #expect(store.reports[0].triggerData == 4)
    }

    @Test("Restarted, a report read back from the file goes out inside 24–48 h of its trigger, wherever in its day the trigger came")
    func restartKeepsTheWindow() throws {
        let midnight = AttributionDay(containing: Self.t0).start
        for (index, offset) in [0, 1, 3600, 43_200, 86_399, 86_340, 7, 60_001].enumerated() {
            let triggered = midnight + offset
            let store = Self.reported(now: triggered, seed: UInt64(100 + index))
            let file = AttributionStoreFormat.file(store)
            var back = try #require(AttributionStoreFormat.store(fromFile: file))
            back.resumeAfterRestart()
            let due = back.reports[0].sendAfter
            #expect(
                (triggered + Self.day...triggered + 2 * Self.day).contains(due),
                "trigger at +\(offset) s: due \(due - triggered) s later")
            #expect(due == AttributionDay(containing: triggered).adding(days: 2).start)
        }
    }
}
