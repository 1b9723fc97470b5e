// Tests of Exec parsing (quoting rules) and field-code expansion for one URL and for the broker's argv template.
import Testing

@testable import ActivityKit

@Suite struct DesktopExecTests {
    static let context = DesktopExec.Context(
        icon: "firefox", name: "Firefox Web-Browser",
        desktopFilePath: "/usr/share/applications/firefox.desktop")
    static let url = "https://example.org/a b?x={y}"

    /// (Exec as unescaped by DesktopEntry.string, argv for `url`, argv template)
    @Test(arguments: [
        ("firefox %u", ["firefox", url], ["firefox", "{url}"]),
        ("firefox %U", ["firefox", url], ["firefox", "{url}"]),
        ("firefox --new-window %u", ["firefox", "--new-window", url], ["firefox", "--new-window", "{url}"]),
        ("app --url=%u", ["app", "--url=" + url], ["app", "--url={url}"]),
        (
            #""/opt/my app/bin/app" --name "a \"b\"" %u"#, ["/opt/my app/bin/app", "--name", #"a "b""#, url],
            ["/opt/my app/bin/app", "--name", #"a "b""#, "{url}"]
        ),
        (#"app "\`\$\\" x"#, ["app", #"`$\"#, "x"], ["app", #"`$\"#, "x"]),
        (#"app "a\qb""#, ["app", #"a\qb"#], ["app", #"a\qb"#]),
        ("app %i %u", ["app", "--icon", "firefox", url], ["app", "--icon", "firefox", "{url}"]),
        (
            "app --title %c %u", ["app", "--title", "Firefox Web-Browser", url],
            ["app", "--title", "Firefox Web-Browser", "{url}"]
        ),
        (
            "app %k %u", ["app", "/usr/share/applications/firefox.desktop", url],
            ["app", "/usr/share/applications/firefox.desktop", "{url}"]
        ),
        ("app 100%% %u", ["app", "100%", url], ["app", "100%", "{url}"]),
        (#"app "50%%" %u"#, ["app", "50%", url], ["app", "50%", "{url}"]),
        ("app %d %D %n %N %v %m %u", ["app", url], ["app", "{url}"]),
        ("app --x=%d %u", ["app", "--x=", url], ["app", "--x=", "{url}"]),
        ("app", ["app"], ["app"]),
        ("app  \t spaced\targs", ["app", "spaced", "args"], ["app", "spaced", "args"]),
        (#"app "" %u"#, ["app", "", url], ["app", "", "{url}"]),
        ("app --json={\"a\":1} %u", ["app", "--json={a:1}", url], ["app", "--json={{a:1}}", "{url}"]),
        (#"app "{literal}" %u"#, ["app", "{literal}", url], ["app", "{{literal}}", "{url}"]),
        (#"app --name="x y" %u"#, ["app", "--name=x y", url], ["app", "--name=x y", "{url}"]),
    ])
    func expansion(exec: String, argv: [String], template: [String]) throws {
        let parsed = try DesktopExec(parsing: exec)
        #expect(try parsed.arguments(forURL: Self.url, context: Self.context) == argv)
        #expect(try parsed.argvTemplate(context: Self.context) == template)
    }

    @Test func iconCodeVanishesWithoutIcon() throws {
        let parsed = try DesktopExec(parsing: "app %i %k %u")
        let bare = DesktopExec.Context(icon: nil, name: "App", desktopFilePath: nil)
        #expect(
            try parsed.arguments(forURL: "https://a.example/", context: bare) == [
                "app", "https://a.example/",
            ])
    }

    @Test func bracesInContextValuesAreEscapedInTheTemplate() throws {
        let parsed = try DesktopExec(parsing: "app %c %k %i %u")
        let braces = DesktopExec.Context(
            icon: "/icons/{x}.png", name: "A {b}", desktopFilePath: "/apps/{c}.desktop")
        #expect(
            try parsed.argvTemplate(context: braces) == [
                "app", "A {{b}}", "/apps/{{c}}.desktop", "--icon", "/icons/{{x}}.png", "{url}",
            ])
    }

    @Test(arguments: [
        ("file:///tmp/a%20b.txt", "/tmp/a b.txt"),
        ("file://localhost/etc/hosts", "/etc/hosts"),
    ])
    func fileCodeTakesLocalPathOfFileURL(url: String, path: String) throws {
        for exec in ["viewer %f", "viewer %F"] {
            let parsed = try DesktopExec(parsing: exec)
            #expect(try parsed.arguments(forURL: url, context: Self.context) == ["viewer", path])
        }
    }

    @Test(arguments: ["https://example.org/", "file://otherhost/etc/hosts", "mailto:a@b.example"])
    func fileCodeCannotTakeOtherURLs(url: String) throws {
        let parsed = try DesktopExec(parsing: "viewer %f")
        #expect(parsed.urlFieldCode == "f")
        #expect {
            try parsed.arguments(forURL: url, context: Self.context)
        } throws: { error in
            if case .notApplicable = error as? DesktopExecError { return true }
            return false
        }
    }

    @Test func fileCodeHasNoTemplate() throws {
        let parsed = try DesktopExec(parsing: "viewer %F")
        #expect {
            try parsed.argvTemplate(context: Self.context)
        } throws: { error in
            if case .notApplicable = error as? DesktopExecError { return true }
            return false
        }
    }

    @Test(arguments: [
        "",
        "   ",
        "app %x",
        "app %",
        "app %u %U",
        "app %f %u",
        "app --files=%F",
        "app --icon=%i",
        #"app "unterminated"#,
        #"sh -c "open %u""#,
        #"app "$HOME""#,
        #"app "`id`""#,
        "app a;b",
        "app >out",
        "app 'single'",
        "app ~/x",
        "app a|b",
        #"app a\ b"#,
        "%u",
    ])
    func invalidExecLines(exec: String) {
        #expect {
            try DesktopExec(parsing: exec)
        } throws: { error in
            if case .invalid = error as? DesktopExecError { return true }
            return false
        }
    }

    @Test func urlFieldCodeReportsWhatTheProgramTakes() throws {
        #expect(try DesktopExec(parsing: "app").urlFieldCode == nil)
        #expect(try DesktopExec(parsing: "app %U").urlFieldCode == "U")
        #expect(try DesktopExec(parsing: "app %%u").urlFieldCode == nil)
    }

    /// The file stores a literal backslash in a quoted argument as four backslashes: the
    /// string escape runs first, then the quoting rule.
    @Test func stringEscapesRunBeforeQuoting() throws {
        let entry = try DesktopEntry(
            parsing: "[Desktop Entry]\nExec=app \"a\\\\\\\\b\" \"c\\\\$d\" %u\n", fileName: "q.desktop")
        let exec = try #require(entry.string("Exec"))
        #expect(
            try DesktopExec(parsing: exec).argvTemplate(context: Self.context) == [
                "app", #"a\b"#, "c$d", "{url}",
            ])
    }

    /// An escape is `%` and two hex digits: "%-0" and "%+1" were read as bytes 0 and 1
    /// (`UInt8(_:radix:)` takes a sign), and a NUL cut the path short in the program's argv.
    @Test func aFilePathEscapeIsTwoHexDigitsAndNeverANul() {
        #expect(DesktopExec.localPath(ofFileURL: "file:///a%-0b") == "/a%-0b")
        #expect(DesktopExec.localPath(ofFileURL: "file:///a%+1b") == "/a%+1b")
        #expect(DesktopExec.localPath(ofFileURL: "file:///a%00b") == nil)
        #expect(DesktopExec.localPath(ofFileURL: "file:///a%41%c3%a9") == "/aAé")
        #expect(SharedURL.normalizePath("/a%-0b%7e") == "/a%-0b~")
    }
}
