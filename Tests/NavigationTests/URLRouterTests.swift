// URLRouterTests: every default outcome, custom policies, bad URLs.

import Foundation
import Navigation
import Testing

@Suite("URL router")
struct URLRouterTests {
    let router = URLRouter()
    let remotePage = URL(string: "https://example.com/page")!

    @Test(arguments: ["http://example.com/", "https://example.com/a?b#c", "HTTPS://EXAMPLE.COM"])
    func webURLsOpenInApp(url: String) {
        #expect(router.route(url) == .handled)
    }

    @Test(arguments: [
        "mailto:someone@example.org", "tel:+441234567", "myapp://open/thing", "sms:123", "ftp://h/f",
    ])
    func otherSchemesGoToTheSystem(url: String) {
        #expect(router.route(url) == .systemAction)
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", "vbscript:msgbox",
        "about:blank",
        "blob:https://example.com/uuid",
    ])
    func unsafeSchemesAreDiscarded(url: String) {
        #expect(router.route(url).discardReason != nil)
    }

    @Test(arguments: [
        "", "   ", "no scheme here", "/relative/path", "http://", "https:///nohost", "1http://x",
    ])
    func invalidURLsAreDiscarded(url: String) {
        #expect(router.route(url).discardReason != nil, "\(url) should be discarded")
    }

    @Test func fileURLsOpenOnlyFromOutsideOrFromLocalPages() {
        let file = URL(string: "file:///tmp/page.html")!
        #expect(router.route(file) == .handled)
        #expect(router.route(file, from: URL(string: "file:///tmp/index.html")!) == .handled)
        #expect(router.route(file, from: remotePage).discardReason != nil)
    }

    @Test func customPolicyIsConsultedFirstAndCanPassOn() {
        let rewritten = URL(string: "https://maps.example.com/?q=x")!
        let custom = router.consulting { url, _ in
            if url.scheme == "geo" { return .systemAction(rewritten) }
            if url.host == "blocked.example" { return .discarded("blocked by the app") }
            return nil
        }
        #expect(custom.route("geo:1,2") == .systemAction(rewritten))
        #expect(custom.route("https://blocked.example/") == .discarded("blocked by the app"))
        #expect(custom.route("https://fine.example/") == .handled)
        #expect(custom.route("mailto:x@y.z") == .systemAction)
    }

    @Test func laterPoliciesAreAskedBeforeEarlierOnesAndSeeTheSource() {
        let first = URLRouter(policy: { _, _ in .discarded("first") })
        let second = first.consulting { _, source in source == nil ? nil : .handled }
        #expect(second.route("mailto:a@b.c", from: remotePage) == .handled)
        #expect(second.route("mailto:a@b.c") == .discarded("first"))
    }

    @Test func outcomesNameTheirKindAndSystemURL() {
        let original = URL(string: "geo:1,2")!
        let rewritten = URL(string: "https://maps.example.com/")!
        #expect(RouteOutcome.handled.kind == "handled")
        #expect(RouteOutcome.handled.systemURL(for: original) == nil)
        #expect(RouteOutcome.systemAction.kind == "systemAction")
        #expect(RouteOutcome.systemAction.systemURL(for: original) == original)
        #expect(RouteOutcome.systemAction(rewritten).systemURL(for: original) == rewritten)
        #expect(RouteOutcome.discarded("x").kind == "discarded")
    }

    @Test func outcomesDescribeThemselves() {
        #expect(RouteOutcome.handled.description == "handled")
        #expect(RouteOutcome.systemAction.description == "systemAction")
        #expect(RouteOutcome.discarded("why").description == "discarded(why)")
    }
}

/// Regression (issue 13): `HTTP://` URLs failed to load while `share open --json` said `handled`.
@Suite struct URLNormalizationTests {
    @Test(arguments: [
        ("HTTP://Example.COM/Path?Q=1", "http://example.com/Path?Q=1"),
        ("HtTpS://example.com:8443/", "https://example.com:8443/"),
        ("http://example.com/", "http://example.com/"),
        ("MAILTO:a@example.org", "mailto:a@example.org"),
    ])
    func schemeAndHostAreLowercased(input: String, expected: String) throws {
        #expect(URLRouter.normalized(try #require(URL(string: input))).absoluteString == expected)
    }

    @Test func anUppercaseSchemeRoutesLikeALowercaseOne() {
        #expect(URLRouter().route("HTTP://example.com/") == .handled)
        #expect(URLRouter().route("JAVASCRIPT:alert(1)").discardReason != nil)
    }
}
