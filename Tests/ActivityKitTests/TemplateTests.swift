// Tests of templates: parsing, raw and query-encoded expansion with injection attempts, exec and open specs.

import Testing

@testable import ActivityKit

struct TemplateTests {
    static let nasty = "Tom & Jerry #1 100% \"q\" 'x' $(rm -rf ~) `id` a+b=c?d/e\nline2 😀"
    static let nastyEncoded =
        "Tom%20%26%20Jerry%20%231%20100%25%20%22q%22%20%27x%27%20%24%28rm%20-rf%20~%29%20%60id%60%20a%2Bb%3Dc%3Fd%2Fe%0Aline2%20%F0%9F%98%80"

    @Test func queryEncodingEncodesEverythingButUnreserved() throws {
        let t = try Template("https://t.me/share/url?url={url}&text={title}")
        let i = items("https://example.org/a?b=1&c=2#frag", title: Self.nasty)
        #expect(
            t.expandQueryEncoded(i)
                == "https://t.me/share/url?url=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1%26c%3D2%23frag&text="
                + Self.nastyEncoded)
    }

    @Test func absentValuesExpandEmpty() throws {
        let t = try Template("[{title}|{text}|{url}]")
        #expect(t.expandRaw(items("https://a.example/")) == "[||https://a.example/]")
        #expect(t.expandQueryEncoded(items("https://a.example/")) == "[||https%3A%2F%2Fa.example%2F]")
    }

    @Test(arguments: [
        ("{{url}}", "{url}"),
        ("{{{url}}}", "{https://a.example/x}"),
        ("a}}b{{c", "a}b{c"),
        ("plain", "plain"),
        ("", ""),
        ("{text}{title}", "TXTTTL"),
    ])
    func bracesAndPlaceholders(_ source: String, _ expected: String) throws {
        #expect(
            try Template(source).expandRaw(items("https://a.example/x", title: "TTL", text: "TXT"))
                == expected)
    }

    @Test(arguments: ["{foo}", "{url", "}", "a}b", "{}", "{URL}", "x{ url }", "{{url}}}"])
    func badTemplates(_ source: String) {
        guard case .invalidArgument(let m)? = caught({ try Template(source) }) else {
            Issue.record("template \(source.debugDescription) accepted")
            return
        }
        #expect(m.contains("template"))
    }

    @Test func execKeepsEachArgumentWhole() throws {
        let spec = try ExecSpec(
            argv: [Template("notify-send"), Template("--"), Template("{title}: {url}"), Template("{text}")],
            stdin: Template("{url}\n"))
        let i = items("https://example.org/?q=$(reboot)&x='id';ls", title: Self.nasty)
        #expect(
            spec.arguments(for: i) == [
                "notify-send", "--", Self.nasty + ": https://example.org/?q=$(reboot)&x='id';ls", "",
            ])
        #expect(spec.input(for: i) == "https://example.org/?q=$(reboot)&x='id';ls\n")
        #expect(spec.program == "notify-send")
    }

    @Test func execProgramMustBeFixed() throws {
        #expect(caught { try ExecSpec(argv: []) } != nil)
        #expect(caught { try ExecSpec(argv: [Template("")]) } != nil)
        #expect(caught { try ExecSpec(argv: [Template("{url}")]) }?.message.contains("placeholder") == true)
        #expect(caught { try ExecSpec(argv: [Template("/usr/bin/{title}")]) } != nil)
    }

    static let openCases: [(template: String, url: String, title: String?, expected: String?)] = [
        ("{url}", "https://example.org/a?b=1#c", nil, "https://example.org/a?b=1#c"),
        ("{url}", "javascript:alert(1)", nil, nil),
        ("{url}", "file:///etc/passwd", nil, nil),
        ("{url}", "mailto:a@example.org", nil, "mailto:a@example.org"),
        (
            "https://t.me/share/url?url={url}&text={title}", "https://a.example/", "A&B",
            "https://t.me/share/url?url=https%3A%2F%2Fa.example%2F&text=A%26B"
        ),
        (
            "mailto:?subject={title}&body={url}", "https://a.example/", "Hi there",
            "mailto:?subject=Hi%20there&body=https%3A%2F%2Fa.example%2F"
        ),
        ("https://{title}.example/", "https://a.example/", "evil.org/#", nil),
    ]

    @Test(arguments: openCases)
    func openURLIsCheckedAfterExpansion(
        _ template: String, _ u: String, _ title: String?, _ expected: String?
    ) throws {
        let spec = try OpenSpec(template: Template(template))
        let i = items(u, title: title)
        if let expected {
            #expect(try spec.url(for: i) == expected)
        } else {
            #expect(caught { try spec.url(for: i) } != nil)
        }
    }

    @Test(arguments: [
        "javascript:{url}", "{title}", "//evil/{url}", "ftp://x/{url}", "{url}{title}", "data:,{text}",
    ])
    func openTemplatesThatCanNeverBeSafeAreRejected(_ template: String) throws {
        let t = try Template(template)
        guard case .invalidArgument(let m)? = caught({ try OpenSpec(template: t) }) else {
            Issue.record("open template \(template) accepted")
            return
        }
        #expect(m.hasPrefix("open:"))
    }
}
