// SiteAddressTests: the displayed host, its registrable domain, and the security indicator rules.

@testable import ActivityBrokerClient
import Foundation
import Navigation
import Testing

@Suite("Address and security indicator")
struct SiteAddressTests {
    @Test(arguments: [
        ("https://www.example.com/x", "www.example.com", "example.com"),
        ("https://a.b.example.com", "a.b.example.com", "example.com"),
        ("https://example.com", "example.com", "example.com"),
        ("https://www.bbc.co.uk/news", "www.bbc.co.uk", "bbc.co.uk"),
        ("https://shop.example.com.au", "shop.example.com.au", "example.com.au"),
        ("https://EXAMPLE.ORG./", "example.org", "example.org"),
        ("http://localhost:8080/", "localhost:8080", "localhost"),
        ("http://127.0.0.1:8000/x", "127.0.0.1:8000", "127.0.0.1"),
        ("http://[::1]:8000/x", "[::1]:8000", "[::1]"),
        ("http://[2001:db8::1]/", "[2001:db8::1]", "[2001:db8::1]"),
        ("http://example.com:80/", "example.com", "example.com"),
        ("https://example.com:443/", "example.com", "example.com"),
        ("https://example.com:80/", "example.com:80", "example.com"),
    ])
    func hostAndRegistrableDomain(url: String, text: String, domain: String) throws {
        let address = try #require(SiteAddress(url: URL(string: url)!))
        #expect(address.text == text)
        #expect(address.registrableDomain == domain)
        #expect(address.prefix + address.registrableDomain + address.portSuffix == address.text)
    }

    /// Regression (issue 13): the address showed only the host, so two ports looked alike.
    @Test func twoPortsOfOneHostLookDifferent() throws {
        let a = try #require(SiteAddress(url: URL(string: "http://127.0.0.1:8000/")!))
        let b = try #require(SiteAddress(url: URL(string: "http://127.0.0.1:8001/")!))
        #expect(a.text != b.text)
        #expect(a.portSuffix == ":8000")
    }

    @Test(arguments: [
        "https://user:secret@www.example.com/", "https://user@example.com:8443/",
        "http://a%40b:pw@127.0.0.1/",
    ])
    func userInfoIsNeverShown(url: String) throws {
        let address = try #require(SiteAddress(url: URL(string: url)!))
        #expect(!address.text.contains("@"))
        #expect(!address.text.contains("user"))
        #expect(!address.text.contains("secret"))
        #expect(!address.text.contains("pw"))
    }

    @Test func fileURLShowsItsPathWithoutEmphasis() throws {
        let address = try #require(SiteAddress(url: URL(fileURLWithPath: "/tmp/a page.html")))
        #expect(address.text == "/tmp/a page.html")
        #expect(address.registrableDomain.isEmpty)
    }

    @Test func sameSiteComparesRegistrableDomains() {
        let page = URL(string: "https://www.example.co.uk/a")!
        #expect(SiteAddress.sameSite(URL(string: "https://m.example.co.uk/b")!, page))
        #expect(!SiteAddress.sameSite(URL(string: "https://other.co.uk/b")!, page))
        #expect(!SiteAddress.sameSite(URL(string: "https://evil-example.co.uk/")!, page))
        #expect(!SiteAddress.sameSite(URL(fileURLWithPath: "/x"), URL(fileURLWithPath: "/x")))
    }

    // The https→http downgrade is checked on recorded chains: the tests have no TLS server,
    // and the indicator is decided from the chain's schemes alone.
    @Test(arguments: [
        (["https://a.example/"], true, SecurityIndicator.secure),
        (["http://a.example/"], true, .notSecure),
        (["https://a.example/", "http://a.example/"], true, .notSecure),
        (["https://a.example/", "http://b.example/", "https://a.example/"], true, .notSecure),
        (["http://a.example/", "https://a.example/"], true, .secure),
        (["https://a.example/"], false, .notSecure),
        (["file:///tmp/x.html"], true, .local),
        (["file:///tmp/missing.html"], false, .local),
        ([], true, .notSecure),
    ])
    func securityIndicatorFromChain(chain: [String], succeeded: Bool, expected: SecurityIndicator) {
        let urls = chain.map { URL(string: $0)! }
        #expect(SecurityIndicator.evaluate(chain: urls, succeeded: succeeded) == expected)
    }

    @Test func indicatorsHaveDistinctLabels() {
        let labels = [SecurityIndicator.secure, .notSecure, .local].map(\.label)
        #expect(Set(labels).count == 3)
        #expect(SecurityIndicator.notSecure.label == "Not Secure")
    }

    @Test func downgradedLoadedPageIsNotSecure() {
        let page = LoadedPage(
            requestedURL: URL(string: "https://bank.example/")!,
            finalURL: URL(string: "http://bank.example/")!,
            redirects: [
                Redirect(
                    from: URL(string: "https://bank.example/")!, to: URL(string: "http://bank.example/")!,
                    statusCode: 301)
            ],
            statusCode: 200)
        #expect(page.security == .notSecure)
        #expect(NavigationEntry(page: page).security == .notSecure)
    }

    @Test(arguments: [("#0a84ff", 10, 132, 255), ("#FFF", 255, 255, 255), (" navy ", 0, 0, 128)])
    func tintColorsParse(text: String, red: Int, green: Int, blue: Int) throws {
        let color = try #require(TintColor(text))
        #expect(color == TintColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue)))
    }

    @Test(arguments: ["", "#12345", "#gggggg", "0a84ff", "notacolor"])
    func badTintColorsAreRejected(text: String) {
        #expect(TintColor(text) == nil)
    }

    /// What the terminal's colour parser accepted before TintColor became the one parser.
    @Test func tintColorsTakeTheTerminalsFormsAndSystemTints() {
        #expect(TintColor("#ff8000") == TintColor(red: 255, green: 128, blue: 0))
        #expect(TintColor("#F80") == TintColor(red: 255, green: 136, blue: 0))
        #expect(TintColor("Blue") == TintColor(red: 0, green: 0, blue: 255))
        #expect(TintColor("systemBlue") == TintColor(red: 0, green: 0x7A, blue: 0xFF))
        #expect(TintColor("systemGray") == TintColor(red: 0x8E, green: 0x8E, blue: 0x93))
        #expect(TintColor("chartreuse-ish") == nil)
    }
}
