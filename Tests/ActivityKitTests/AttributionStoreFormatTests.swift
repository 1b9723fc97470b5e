// AttributionStoreFormat: the store file and listing round-trip, hold days only, and refuse anything else.
import ActivityFuzzing
import ActivityKit
import Foundation
import Testing

@Suite("Attribution store format")
struct AttributionStoreFormatTests {
    static func sample() -> AttributionStore {
        var random = SplitMix64(seed: 2)
        var store = AttributionStore()
        let t0 = AttributionStoreTests.t0
        store.record(AttributionStoreTests.click("ads.example", "shop.example", id: 1), now: t0)
        store.record(AttributionStoreTests.click("ads.example", "books.example", id: 2), now: t0)
        _ = store.record(
            AttributionTrigger(sourceSite: "ads.example", triggerData: 9, priority: 4),
            destinationSite: "books.example", now: t0, using: &random)
        return store
    }

    @Test("The listing is API.md §11's array, dates to the day")
    func listing() {
        let store = Self.sample()
        let day = AttributionDay(containing: store.reports[0].sendAfter)
        #expect(
            AttributionStoreFormat.listing(store)
                == #"[{"kind":"click","source_site":"ads.example","destination_site":"shop.example","source_id":1,"expires":"2026-12-08"},"#
                + #"{"kind":"report","source_site":"ads.example","destination_site":"books.example","source_id":2,"trigger_data":9,"priority":4,"send_after":""#
                + "\(day)\"}]")
    }

    @Test("The file round-trips: a report read back keeps its day, its trigger's day and what answered")
    func roundTrip() throws {
        var store = Self.sample()
        let pair = store.reports[0].pair
        store.answered(pair, by: [.destination], now: store.reports[0].sendAfter)
        let data = AttributionStoreFormat.file(store)
        #expect(String(decoding: data, as: UTF8.self).contains(#""trigger_day":"2026-12-01","attempts":1,"answered":["destination"]"#))
        let back = try #require(AttributionStoreFormat.store(fromFile: data))
        #expect(back.clicks == store.clicks)
        #expect(back.reports.count == 1)
        let (old, new) = (store.reports[0], back.reports[0])
        #expect(new.sendAfter == AttributionDay(containing: old.sendAfter).start)
        #expect(new.triggerDay == old.triggerDay && new.answered == [.destination] && new.attempts == 1)
        #expect(new.pair == old.pair && new.triggerData == old.triggerData && new.priority == old.priority)
        #expect(AttributionStoreFormat.file(back) == data, "rewriting changes nothing")
    }

    @Test("A site kept before sites came from the Public Suffix List that is a listed suffix (github.io) is forgotten, the rest kept")
    func listedSuffixSitesAreForgotten() throws {
        try #require(PublicSuffixList.system != nil, "the system's list (make test installs publicsuffix)")
        var store = AttributionStore()
        let t0 = AttributionStoreTests.t0
        store.record(AttributionStoreTests.click("ads.example", "github.io", id: 1), now: t0)
        store.record(AttributionStoreTests.click("ads.example", "alice.github.io", id: 2), now: t0)
        store.record(AttributionStoreTests.click("co.uk", "shop.example", id: 3), now: t0)
        let back = try #require(AttributionStoreFormat.store(fromFile: AttributionStoreFormat.file(store)))
        #expect(back.clicks.map(\.sourceID) == [2])
    }

    @Test("A report written before trigger_day and answered existed: its trigger counts a day before send_after")
    func olderReport() throws {
        let text = #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","attempts":0}]}"#
        let report = try #require(AttributionStoreFormat.store(fromFile: Array(text.utf8))?.reports.first)
        #expect(report.triggerDay.description == "2026-12-07" && report.answered.isEmpty)
        #expect(AttributionDay(containing: report.restartSendTime).description == "2026-12-09")
    }

    @Test("The file holds no time finer than a day and no path")
    func noFineTime() throws {
        let text = String(decoding: AttributionStoreFormat.file(Self.sample()), as: UTF8.self)
        #expect(!text.contains("/"))
        #expect(text.range(of: #"[0-9]:[0-9]"#, options: .regularExpression) == nil, "no hh:mm")
        #expect(text.range(of: #"[0-9]{5,}"#, options: .regularExpression) == nil, "no epoch seconds")
    }

    @Test(
        "Corrupt or foreign files are refused whole",
        arguments: [
            "", "{", "[]", #"{"version":2,"attributions":[]}"#, #"{"version":1}"#,
            #"{"version":1,"attributions":[{"kind":"click"}]}"#,
            #"{"version":1,"attributions":[{"kind":"click","source_site":"a.example","destination_site":"b.example","source_id":256,"expires":"2026-12-08"}]}"#,
            #"{"version":1,"attributions":[{"kind":"click","source_site":"a.example/x","destination_site":"b.example","source_id":1,"expires":"2026-12-08"}]}"#,
            #"{"version":1,"attributions":[{"kind":"click","source_site":"a.example","destination_site":"b.example","source_id":1,"expires":"2026-12-08T10:00"}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":16,"priority":0,"send_after":"2026-12-08","attempts":0}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","attempts":2}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","trigger_day":"12:00","attempts":0}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","attempts":0,"answered":["source","source"]}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","attempts":0,"answered":["source","destination"]}]}"#,
            #"{"version":1,"attributions":[{"kind":"report","source_site":"a.example","destination_site":"b.example","source_id":1,"trigger_data":1,"priority":0,"send_after":"2026-12-08","attempts":0,"answered":["elsewhere"]}]}"#,
            #"{"version":1,"attributions":[{"kind":"other","source_site":"a.example","destination_site":"b.example","source_id":1}]}"#,
        ])
    func corrupt(text: String) {
        #expect(AttributionStoreFormat.store(fromFile: Array(text.utf8)) == nil)
    }

    @Test("A file over the size limit is not read")
    func oversized() {
        let padding = String(repeating: " ", count: AttributionStoreFormat.maximumFileSize)
        let data = Array((#"{"version":1,"attributions":[]}"# + padding).utf8)
        #expect(AttributionStoreFormat.store(fromFile: data) == nil)
        #expect(
            AttributionStoreFormat.store(
                fromFile: Array(#"{"version":1,"attributions":[]}"#.utf8))?.isEmpty == true)
    }
}
