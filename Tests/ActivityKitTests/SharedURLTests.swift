// Tests of the URL parser: components, host normalization (IDNA, IPv6, userinfo) and rejections.

import Testing

@testable import ActivityKit

struct SharedURLTests {
    struct Parsed: Sendable, CustomTestStringConvertible {
        let input: String, scheme: String, host: String?, port: Int?, path: String
        var testDescription: String { input }
    }

    static let good: [Parsed] = [
        .init(
            input: "https://example.org/a/b?q=1#f", scheme: "https", host: "example.org", port: nil,
            path: "/a/b"),
        .init(input: "HTTPS://EXAMPLE.ORG", scheme: "https", host: "example.org", port: nil, path: "/"),
        .init(input: "https://example.org./x", scheme: "https", host: "example.org", port: nil, path: "/x"),
        .init(
            input: "https://youtube.com@evil.org/", scheme: "https", host: "evil.org", port: nil, path: "/"),
        .init(
            input: "https://user:pw@host.example:8443/p", scheme: "https", host: "host.example", port: 8443,
            path: "/p"),
        .init(input: "http://[::1]/", scheme: "http", host: "::1", port: nil, path: "/"),
        .init(
            input: "http://[2001:DB8:0:0:0:0:0:1]:8080/x", scheme: "http", host: "2001:db8::1", port: 8080,
            path: "/x"),
        .init(
            input: "http://[::ffff:192.0.2.1]/", scheme: "http", host: "::ffff:c000:201", port: nil, path: "/"
        ),
        .init(
            input: "https://bücher.example/", scheme: "https", host: "xn--bcher-kva.example", port: nil,
            path: "/"),
        .init(
            input: "https://BÜCHER.example/", scheme: "https", host: "xn--bcher-kva.example", port: nil,
            path: "/"),
        .init(input: "https://%65vil.org/", scheme: "https", host: "evil.org", port: nil, path: "/"),
        .init(
            input: "https://a.example/%7Euser/./x/../y", scheme: "https", host: "a.example", port: nil,
            path: "/~user/y"),
        .init(
            input: "https://a.example/%2f%41", scheme: "https", host: "a.example", port: nil, path: "/%2FA"),
        .init(
            input: "mailto:someone@example.org", scheme: "mailto", host: nil, port: nil,
            path: "someone@example.org"),
        .init(input: "file:///etc/hosts", scheme: "file", host: "", port: nil, path: "/etc/hosts"),
        .init(input: "https://example.org:/x", scheme: "https", host: "example.org", port: nil, path: "/x"),
        .init(input: "https://ｅｘａｍｐｌｅ.org/", scheme: "https", host: "example.org", port: nil, path: "/"),
        .init(
            input: "https://bücher。example/", scheme: "https", host: "xn--bcher-kva.example", port: nil,
            path: "/"),
        .init(
            input: "https://b%C3%BCcher.example/", scheme: "https", host: "xn--bcher-kva.example", port: nil,
            path: "/"),
        .init(
            input: "https://evil.org/@youtube.com", scheme: "https", host: "evil.org", port: nil,
            path: "/@youtube.com"),
        .init(
            input: "https://example.org/ä?ü=ö", scheme: "https", host: "example.org", port: nil, path: "/ä"),
    ]

    @Test(arguments: good)
    func parses(_ c: Parsed) throws {
        let u = try SharedURL(c.input)
        #expect(u.string == c.input)
        #expect(u.scheme == c.scheme)
        #expect(u.host == c.host)
        #expect(u.port == c.port)
        #expect(u.path == c.path)
    }

    @Test func queryAndFragmentAreKeptAsGiven() throws {
        let u = try SharedURL("https://example.org/p?a=%41&b#frag")
        #expect(u.query == "a=%41&b")
        #expect(u.fragment == "frag")
        #expect(u.userinfo == nil)
        #expect(try SharedURL("https://youtube.com@evil.org/").userinfo == "youtube.com")
    }

    /// Input → a word the message must contain.
    static let bad: [(String, String)] = [
        ("", "empty"),
        ("/relative/path", "scheme"),
        ("example.org/x", "scheme"),
        ("//example.org/x", "scheme"),
        ("1http://example.org", "scheme"),
        ("https://exa mple.org/", "space"),
        ("https://example.org/a b", "space"),
        ("https://example.org/\n", "control"),
        ("https://example.org/\u{7F}", "control"),
        ("https://example.org/\u{202E}gpj", "U+202E"),
        ("https://example.org/%zz", "%"),
        ("https://example.org/%4", "%"),
        ("https://example.org/\"q\"", "percent-encoded"),
        ("https://example.org/<script>", "percent-encoded"),
        ("https://a@b@evil.org/", "'@'"),
        ("https://example.org:99999/", "port"),
        ("https://example.org:80a/", "port"),
        ("https://[::1/", "']'"),
        ("https://[1:2:3:4:5:6:7:8:9]/", "IPv6"),
        ("https://[::1::2]/", "IPv6"),
        ("https://::1/", "brackets"),
        ("https:///path", "no host"),
        ("https:", "no host"),
        ("https://a..b/", "empty label"),
        ("https://a/x#y#z", "'#'"),
        ("https://youtube.com\\@evil.org/", "'\\'"),
        ("https://evil.org%2F.youtube.com/", "'/'"),
        ("https://evil.org%00.youtube.com/", "host"),
        ("https://%FF.example/", "UTF-8"),
        ("https://[fe80::1%25eth0]/", "IPv6"),
        ("https://ex\tample.org/", "control"),
        ("https://example.org/[x]", "'['"),
        ("https://" + String(repeating: "a", count: 64) + ".org/", "longer than 63"),
    ]

    @Test(arguments: bad)
    func rejects(_ input: String, _ word: String) {
        let e = caught { try SharedURL(input) }
        guard case .invalidArgument(let m)? = e else {
            Issue.record(
                "expected invalidArgument for \(input.debugDescription), got \(String(describing: e))")
            return
        }
        #expect(m.contains(word), "message: \(m)")
    }

    @Test func tooLongURLIsRejected() {
        let u = "https://example.org/" + String(repeating: "x", count: 32 * 1024)
        guard case .invalidArgument(let m)? = caught({ try SharedURL(u) }) else {
            Issue.record("long URL accepted")
            return
        }
        #expect(m.contains("32 KiB"))
    }

    @Test func exactly32KiBIsAccepted() throws {
        let prefix = "https://example.org/"
        let u = prefix + String(repeating: "x", count: 32 * 1024 - prefix.utf8.count)
        #expect(try SharedURL(u).path.utf8.count == 32 * 1024 - prefix.utf8.count + 1)
    }

    @Test func itemsLimitsAreInUTF8Bytes() {
        let okTitle = String(repeating: "é", count: 2048)  // 4096 bytes
        #expect(caught { try Items(url: "https://a.example/", title: okTitle) } == nil)
        let longTitle = okTitle + "x"
        guard
            case .invalidArgument(let m)? = caught({ try Items(url: "https://a.example/", title: longTitle) })
        else {
            Issue.record("long title accepted")
            return
        }
        #expect(m.hasPrefix("title:"))
        let longText = String(repeating: "x", count: 64 * 1024 + 1)
        #expect(
            caught { try Items(url: "https://a.example/", text: longText) }?.message.hasPrefix("text:")
                == true)
        #expect(caught { try Items(url: "nope") }?.message.hasPrefix("url:") == true)
        #expect(
            caught { try Items(url: "https://a.example/", title: "a\u{0}b") }?.message.hasPrefix("title:")
                == true)
        #expect(
            caught { try Items(url: "https://a.example/", text: "\u{0}") }?.message.hasPrefix("text:") == true
        )
    }

    @Test(arguments: [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        ("例え", "r8jz45g"),
        ("ñ", "ida"),
        ("пример", "e1afmkfd"),
        ("abc", "abc-"),
    ])
    func punycode(_ label: String, _ encoded: String) {
        #expect(Punycode.encode(label) == encoded)
    }
}
