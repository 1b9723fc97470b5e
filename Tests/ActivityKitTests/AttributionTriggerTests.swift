// AttributionTrigger's exact URL format and AttributionReport's body and destinations (API.md §11).
import Testing

@testable import ActivityKit

@Suite("Attribution triggers and reports")
struct AttributionTriggerTests {
    static let prefix = "https://ads.example.net/.well-known/private-click-measurement/trigger-attribution/"

    @Test(
        "Trigger URLs that parse",
        arguments: [
            (prefix + "00", "example.net", 0, 0),
            (prefix + "15", "example.net", 15, 0),
            (prefix + "07/63", "example.net", 7, 63),
            (prefix + "03/00", "example.net", 3, 0),
            (
                "https://www.bbc.co.uk/.well-known/private-click-measurement/trigger-attribution/01/02",
                "bbc.co.uk", 1, 2
            ),
            (
                "https://ads.example.net:443/.well-known/private-click-measurement/trigger-attribution/05",
                "example.net", 5, 0
            ),
        ])
    func parses(url: String, site: String, data: Int, priority: Int) {
        let trigger = AttributionTrigger(url)
        #expect(
            trigger
                == AttributionTrigger(sourceSite: site, triggerData: UInt8(data), priority: UInt8(priority)))
    }

    @Test(
        "Anything else is not a trigger",
        arguments: [
            prefix + "16",  // data out of range
            prefix + "99",
            prefix + "01/64",  // priority out of range
            prefix + "1",  // one digit
            prefix + "001",
            prefix + "01/1",
            prefix + "",
            prefix + "01/",  // trailing slash
            prefix + "01/02/03",
            prefix + "0a",
            prefix + "+1",
            prefix + "01?x=1",  // query
            prefix + "01#f",  // fragment
            "http://ads.example.net/.well-known/private-click-measurement/trigger-attribution/01",  // plain http
            "https://user@ads.example.net/.well-known/private-click-measurement/trigger-attribution/01",
            "https://ads.example.net:8443/.well-known/private-click-measurement/trigger-attribution/01",
            "https://ads.example.net/.well-known/private-click-measurement/report-attribution/01",
            "https://ads.example.net/x/.well-known/private-click-measurement/trigger-attribution/01",
            "not a url",
        ])
    func rejects(url: String) {
        #expect(AttributionTrigger(url) == nil)
    }

    @Test("The report body is exactly WebKit's JSON, in its key order")
    func reportJSON() {
        let report = AttributionReport(
            sourceSite: "example.net", destinationSite: "shop.example", sourceID: 200, triggerData: 12,
            priority: 5, triggerDay: AttributionDay(number: 0), sendAfter: 0)
        #expect(
            report.json
                == #"{"source_engagement_type":"click","source_site":"example.net","source_id":200,"attributed_on_site":"shop.example","trigger_data":12,"version":3}"#
        )
    }

    @Test("Reports go to the source site's well-known path, then the destination's")
    func destinations() {
        let report = AttributionReport(
            sourceSite: "example.net", destinationSite: "::1", sourceID: 1, triggerData: 1, priority: 0,
            triggerDay: AttributionDay(number: 0), sendAfter: 0)
        #expect(
            report.destinations == [
                "https://example.net/.well-known/private-click-measurement/report-attribution/",
                "https://[::1]/.well-known/private-click-measurement/report-attribution/",
            ])
    }

    @Test("Days print and parse as YYYY-MM-DD, impossible dates refused")
    func days() {
        #expect(AttributionDay(containing: 0).description == "1970-01-01")
        #expect(AttributionDay(containing: 86_399).description == "1970-01-01")
        #expect(AttributionDay(containing: 86_400).description == "1970-01-02")
        #expect(AttributionDay(containing: -1).description == "1969-12-31")
        #expect(AttributionDay(containing: 1_795_000_000).description == "2026-11-18")
        #expect(AttributionDay(parsing: "2024-02-29")?.description == "2024-02-29")
        for day in stride(from: -719_000, to: 2_900_000, by: 997) {
            let d = AttributionDay(number: day)
            #expect(AttributionDay(parsing: d.description) == d)
        }
        for bad in [
            "2026-02-30", "2026-13-01", "2026-1-01", "2026-01-01T00:00", "", "abcd-ef-gh", "2025-02-29",
        ] {
            #expect(AttributionDay(parsing: bad) == nil, "\(bad)")
        }
    }
}
