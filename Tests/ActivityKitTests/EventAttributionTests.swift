// EventAttribution's checks and RegistrableDomain's sites (API.md §11).
import ActivityKit
import Testing

@Suite("EventAttribution and RegistrableDomain")
struct EventAttributionTests {
    static func attribution(
        destination: String = "https://shop.example.co.uk/item", endpoint: String = "https://ads.example.net",
        description: String = "A banner", opening: String = "https://www.example.co.uk/"
    ) throws(ActivityError) -> EventAttribution {
        try EventAttribution(
            sourceIdentifier: 9, destinationURL: destination, reportEndpoint: endpoint,
            sourceDescription: description,
            purchaser: "Shop", opening: try SharedURL(opening))
    }

    @Test("Sites: the last two labels, three under a two-level public suffix; IP literals whole")
    func sites() {
        #expect(RegistrableDomain.of(host: "a.b.example.com") == "example.com")
        #expect(RegistrableDomain.of(host: "www.bbc.co.uk") == "bbc.co.uk")
        #expect(RegistrableDomain.of(host: "example.org") == "example.org")
        #expect(RegistrableDomain.of(host: "localhost") == "localhost")
        #expect(RegistrableDomain.of(host: "10.1.2.3") == "10.1.2.3")
        #expect(RegistrableDomain.of(host: "::1") == "::1")
    }

    @Test("A valid click keeps its fields and both sites")
    func valid() throws {
        let click = try Self.attribution()
        #expect(click.sourceIdentifier == 9)
        #expect(click.destinationSite == "example.co.uk")
        #expect(click.sourceSite == "example.net")
    }

    @Test("Refused: non-https URLs, another site than the page's, a description over 256 characters")
    func refused() {
        #expect(throws: ActivityError.self) {
            try Self.attribution(destination: "http://shop.example.co.uk/")
        }
        #expect(throws: ActivityError.self) { try Self.attribution(endpoint: "http://ads.example.net") }
        #expect(throws: ActivityError.self) { try Self.attribution(destination: "https://other.co.uk/") }
        #expect(throws: ActivityError.self) {
            try Self.attribution(description: String(repeating: "é", count: 257))
        }
        #expect(throws: ActivityError.self) { try Self.attribution(destination: "not a url") }
        #expect((try? Self.attribution(description: String(repeating: "é", count: 256))) != nil)
    }

    /// Regression: a host with `_` (which URLs allow) was kept, the store file could not be
    /// read back with it, and the next start lost every stored click and report.
    @Test("Refused: a site the store could not read back (an underscore), for the click and for a trigger")
    func unstorableSitesAreRefused() throws {
        #expect(throws: ActivityError.self) { try Self.attribution(endpoint: "https://x.ads_1.example") }
        #expect(
            AttributionTrigger("https://ads_1.example/.well-known/private-click-measurement/trigger-attribution/01") == nil)
        #expect(
            AttributionTrigger("https://ads-1.example/.well-known/private-click-measurement/trigger-attribution/01") != nil)
        #expect(!RegistrableDomain.isSite("ads_1.example") && RegistrableDomain.isSite("ads-1.example"))
    }
}
