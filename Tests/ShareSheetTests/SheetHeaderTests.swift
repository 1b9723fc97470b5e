// The header's text: the URL split around its host, and what stands in for a missing title.
import Testing

@testable import ShareSheet

@Suite struct SheetHeaderTests {
    @Test(arguments: [
        ("https://www.example.org/a/b?c#d", "https://", "www.example.org", "/a/b?c#d"),
        ("https://example.org", "https://", "example.org", ""),
        ("http://example.org:8080/x", "http://", "example.org", ":8080/x"),
        ("https://bank.example@evil.example/login", "https://bank.example@", "evil.example", "/login"),
        ("https://user:pw@host.example:443/", "https://user:pw@", "host.example", ":443/"),
        ("http://[::1]:8080/", "http://", "[::1]", ":8080/"),
        ("http://[::1]/", "http://", "[::1]", "/"),
        ("https://example.org?q=a/b", "https://", "example.org", "?q=a/b"),
        ("mailto:someone@example.org", "", "", "mailto:someone@example.org"),
    ])
    func theHostIsFoundAsAParserFindsIt(url: String, leading: String, host: String, trailing: String) {
        let display = DisplayURL(url)
        #expect(display.leading == leading)
        #expect(display.host == host)
        #expect(display.trailing == trailing)
        #expect(display.text == url)
    }

    @Test func theHeadlineIsTheTitleElseTheHostElseTheURL() {
        #expect(SheetHeader(title: "  A Page\n", url: "https://example.org/").headline == "A Page")
        #expect(SheetHeader(title: "", url: "https://example.org/x").headline == "example.org")
        #expect(SheetHeader(title: " ", url: "mailto:a@b.example").headline == "mailto:a@b.example")
    }

    @Test func anEmptyAppNameIsNoAppName() {
        #expect(SheetHeader(title: "", url: "https://example.org/", appName: "").appName == nil)
        #expect(SheetHeader(title: "", url: "https://example.org/", appName: "Firefox").appName == "Firefox")
    }
}
