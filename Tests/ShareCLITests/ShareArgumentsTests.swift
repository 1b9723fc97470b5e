// The share command line: every form of API.md §8 parses, and mistakes name what is wrong.
import Testing
@testable import ShareCLI

@Suite struct ShareArgumentsTests {
    @Test(arguments: [
        (["https://e.org"], ShareInvocation.share(url: "https://e.org", title: nil, text: nil, activity: nil)),
        (["https://e.org", "--title", "T", "--text=X"], .share(url: "https://e.org", title: "T", text: "X", activity: nil)),
        (["https://e.org", "--activity", "a.b"], .share(url: "https://e.org", title: nil, text: nil, activity: "a.b")),
        (["list", "https://e.org", "--json", "--locale", "de"], .list(url: "https://e.org", title: nil, json: true, locale: "de")),
        (["activities"], .activities(json: false, locale: nil)),
        (["explain", "a.b", "https://e.org"], .explain(id: "a.b", url: "https://e.org", json: false)),
        (["browse", "http://127.0.0.1:1/"], .browse(url: "http://127.0.0.1:1/")),
        (["open", "mailto:a@example.org", "--json"], .open(url: "mailto:a@example.org", json: true)),
        (["sheet", "https://e.org", "--title", "T"], .sheet(url: "https://e.org", title: "T")),
        (["--completions", "zsh"], .completions(shell: "zsh")),
        (["--help"], .help(command: nil)),
        (["list", "--help"], .help(command: "list")),
        (["help"], .help(command: nil)),
        (["help", "explain"], .help(command: "explain")),
        (["check", "a.json", "b.json"], .check(files: ["a.json", "b.json"])),
        (["explain", "a.b", "https://e.org", "--json"], .explain(id: "a.b", url: "https://e.org", json: true)),
        (
            ["activities", "--extensions-dir", "/a", "--extensions-dir=/b"],
            .activities(json: false, locale: nil, extensionDirectories: ["/a", "/b"])
        ),
        (["--version"], .version),
    ])
    func parses(arguments: [String], expected: ShareInvocation) throws {
        #expect(try ShareArguments.parse(arguments).invocation == expected)
    }

    @Test func busOptionIsKept() throws {
        #expect(try ShareArguments.parse(["list", "https://e.org", "--bus", "unix:path=/x"]).bus == "unix:path=/x")
    }

    @Test(arguments: [
        [], ["--title"], ["list"], ["explain", "a.b"], ["https://e.org", "--bogus"],
        ["activities", "--title", "T"], ["sheet"], ["sheet", "https://e.org", "--json"], ["https://a.org", "https://b.org"], ["--completions", "fish"],
        ["check"], ["help", "bogus"], ["help", "list", "extra"], ["check", "a.json", "--json"],
        // Once accepted and ignored: --version and --completions took anything after them.
        ["--version", "--json"], ["--version", "list"], ["--completions", "bash", "list", "https://e.org"],
        ["--completions", "bash", "--title", "T"],
    ])
    func rejects(arguments: [String]) {
        #expect(throws: ShareUsageError.self) { try ShareArguments.parse(arguments) }
    }
}
