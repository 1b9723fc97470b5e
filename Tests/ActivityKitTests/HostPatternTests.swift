// Tests of host globs and match rules: tricky hosts, IDNA, validation and the explaining sentences.

import Testing

@testable import ActivityKit

struct HostPatternTests {
    static let cases: [(pattern: String, host: String, matches: Bool)] = [
        ("*.youtube.com", "https://m.youtube.com/", true),
        ("*.youtube.com", "https://a.b.youtube.com/", true),
        ("*.youtube.com", "https://youtube.com/", false),
        ("*.youtube.com", "https://evil-youtube.com/", false),
        ("*.youtube.com", "https://youtube.com.evil.org/", false),
        ("*.youtube.com", "https://M.YOUTUBE.COM./", true),
        ("*.youtube.com", "https://youtube.com@evil.org/", false),
        ("*.youtube.com", "https://evil.org/?youtube.com", false),
        ("*.YouTube.COM.", "https://www.youtube.com/", true),
        ("youtu.be", "https://youtu.be/x", true),
        ("youtu.be", "https://www.youtu.be/x", false),
        ("youtu.be", "https://YOUTU.BE./x", true),
        ("bücher.example", "https://xn--bcher-kva.example/", true),
        ("xn--bcher-kva.example", "https://bücher.example/", true),
        ("*.bücher.example", "https://shop.BÜCHER.example/", true),
        ("[::1]", "http://[0:0::1]/", true),
        ("[::1]", "http://[::2]/", false),
        ("*", "https://anything.example/", true),
        ("*", "mailto:x@example.org", true),
        ("example.org", "mailto:x@example.org", false),
    ]

    @Test(arguments: cases)
    func glob(_ pattern: String, _ u: String, _ expected: Bool) throws {
        let rule = try MatchRule(schemes: ["https", "http", "mailto"], hosts: [pattern])
        #expect(rule.matches(url(u)) == expected)
        #expect(rule.evaluate(url(u)).applies == expected)
    }

    @Test(arguments: [
        "*foo.com", "a.*.com", "*.", "**", "*.*.com", "foo*", "*.a..b", "exa mple.org", "a/b", "a:80", "",
    ])
    func invalidGlobsAreRejected(_ pattern: String) {
        let e = caught { try MatchRule(hosts: ["ok.example", pattern]) }
        guard case .invalidArgument(let m)? = e else {
            Issue.record("glob \(pattern.debugDescription) accepted")
            return
        }
        #expect(m.hasPrefix("hosts[1]: "), "message: \(m)")
    }

    @Test func schemesCompareCaseInsensitively() throws {
        let rule = try MatchRule(schemes: ["HTTPS"])
        #expect(rule.schemes == ["https"])
        #expect(rule.matches(url("HtTpS://a.example/")))
        #expect(!rule.matches(url("http://a.example/")))
        #expect(MatchRule.httpAny.schemes == ["http", "https"])
    }

    @Test func invalidRuleParts() {
        #expect(caught { try MatchRule(schemes: []) }?.message.hasPrefix("schemes:") == true)
        #expect(caught { try MatchRule(schemes: ["ht tp"]) }?.message.hasPrefix("schemes[0]:") == true)
        #expect(caught { try MatchRule(hosts: []) }?.message.hasPrefix("hosts:") == true)
        #expect(
            caught { try MatchRule(pathPrefixes: ["watch"]) }?.message.hasPrefix("path_prefixes[0]:") == true)
        #expect(
            caught { try MatchRule(pathPrefixes: ["/a", "/b?c"]) }?.message.hasPrefix("path_prefixes[1]:")
                == true)
        let many = (0...MatchRule.maxEntries).map { "h\($0).example" }
        #expect(caught { try MatchRule(hosts: many) }?.message.hasPrefix("hosts: 1025 entries") == true)
        #expect(caught { try MatchRule(hosts: Array(many.dropLast())) } == nil)
    }

    static let pathCases: [(prefix: String, path: String, matches: Bool)] = [
        ("/watch", "https://y.example/watch?v=1", true),
        ("/watch", "https://y.example/watch/x", true),
        ("/watch", "https://y.example/watchlist", false),
        ("/watch/", "https://y.example/watch/x", true),
        ("/watch/", "https://y.example/watch", false),
        ("/", "https://y.example/", true),
        ("/", "https://y.example", true),
        ("/watch", "https://y.example/%77atch", true),
        ("/watch", "https://y.example/a/../watch", true),
        ("/admin", "https://y.example/watch/../admin", true),
        ("/%7Euser", "https://y.example/~user/x", true),
    ]

    @Test(arguments: pathCases)
    func pathPrefixes(_ prefix: String, _ u: String, _ expected: Bool) throws {
        let rule = try MatchRule(pathPrefixes: [prefix])
        #expect(rule.matches(url(u)) == expected)
    }

    static let sentences: [(rule: MatchRule, url: String, applies: Bool, reason: String)] = {
        do {
            let yt = try MatchRule(
                schemes: ["https", "http"], hosts: ["*.youtube.com", "youtu.be"],
                pathPrefixes: ["/watch", "/shorts"])
            let any = try MatchRule(schemes: ["https", "http"])
            return [
                (
                    yt, "https://example.org/watch", false,
                    "host 'example.org' matches none of *.youtube.com, youtu.be"
                ),
                (yt, "ftp://m.youtube.com/watch", false, "scheme 'ftp' is not one of https, http"),
                (
                    yt, "https://m.youtube.com/about", false,
                    "path '/about' starts with none of /watch, /shorts"
                ),
                (
                    yt, "https://m.youtube.com/watch", true,
                    "matches: scheme 'https' is one of https, http; host 'm.youtube.com' matches *.youtube.com; path '/watch' starts with /watch"
                ),
                (
                    any, "https://example.org/x", true,
                    "matches: scheme 'https' is one of https, http; any host; any path"
                ),
            ]
        } catch {
            fatalError("\(error)")
        }
    }()

    @Test(arguments: sentences)
    func explainingSentences(_ rule: MatchRule, _ u: String, _ applies: Bool, _ reason: String) {
        let v = rule.evaluate(url(u))
        #expect(v.applies == applies)
        #expect(v.reason == reason)
    }

    @Test func urlWithoutHostAgainstHostRule() throws {
        let rule = try MatchRule(schemes: ["mailto"], hosts: ["example.org"])
        #expect(
            rule.evaluate(url("mailto:a@example.org")).reason
                == "the URL has no host, and the rule needs one of example.org")
    }
}
