// Tests of the application scanner: desktop ids, masking, GIO's loading rules, Terminal/Path/D-Bus keys, schemes and errors.
import Testing

@testable import ActivityKit

@Suite struct DesktopApplicationScannerTests {
    static func entry(_ name: String, _ extra: String = "", exec: String = "app %u") -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n\(extra)"
    }

    /// Every program is on PATH except names starting with "missing".
    static func scan(_ dirs: [(String, [String: String])]) -> DesktopApplicationScanner.Result {
        DesktopApplicationScanner.scan(
            dirs.map { DesktopApplicationScanner.Directory(path: $0.0, files: $0.1) },
            locale: "de_DE.UTF-8", hasExecutable: { !$0.hasPrefix("missing") })
    }

    @Test func firefoxLikeEntry() throws {
        let firefox = """
            [Desktop Entry]
            Version=1.5
            Type=Application
            Name=Firefox
            Name[de]=Firefox-Browser
            Name[fr]=Navigateur Firefox
            Icon=firefox
            Exec=firefox --name %c %u
            MimeType=text/html;x-scheme-handler/http;x-scheme-handler/HTTPS;x-scheme-handler/https;

            [Desktop Action new-window]
            Name=New Window
            Exec=firefox --new-window %u
            """
        let result = Self.scan([("/usr/share/applications", ["org.mozilla.firefox.desktop": firefox])])
        #expect(result.errors.isEmpty)
        let app = try #require(result.applications.first)
        #expect(app.desktopID == "org.mozilla.firefox.desktop")
        #expect(app.activityID == "desktop.org.mozilla.firefox")
        #expect(app.name == "Firefox")
        #expect(app.names == ["de": "Firefox-Browser", "fr": "Navigateur Firefox"])
        #expect(app.icon == "firefox")
        #expect(app.schemes == ["http", "https"])
        #expect(app.argvTemplate == ["firefox", "--name", "Firefox-Browser", "{url}"])
        #expect(app.path == "/usr/share/applications/org.mozilla.firefox.desktop")
        #expect(app.directory == "/usr/share/applications")
        #expect(!app.noDisplay)
        #expect(app.canOpenURLs)
    }

    @Test(
        arguments: [
            ("kde4/kate.desktop", "kde4-kate.desktop"),
            ("a/b/c.desktop", "a-b-c.desktop"),
            ("./top.desktop", "top.desktop"),
            ("notes.txt", nil),
            (".desktop", nil),
        ] as [(String, String?)])
    func desktopIDsFromSubdirectories(relative: String, id: String?) {
        #expect(DesktopApplicationScanner.desktopID(forRelativePath: relative) == id)
    }

    @Test func firstDirectoryWinsAndSubdirectoryIDsCollide() {
        let result = Self.scan([
            ("/home/u/.local/share/applications", ["vendor-app.desktop": Self.entry("User Copy")]),
            (
                "/usr/share/applications",
                ["vendor/app.desktop": Self.entry("System"), "other.desktop": Self.entry("Other")]
            ),
        ])
        #expect(result.applications.map(\.name) == ["User Copy", "Other"])
        #expect(result.applications.map(\.desktopID) == ["vendor-app.desktop", "other.desktop"])
    }

    @Test func sameIDTwiceInOneDirectoryResolvesDeterministically() {
        for _ in 0..<5 {
            let result = Self.scan([
                ("/apps", ["a/b.desktop": Self.entry("Nested"), "a-b.desktop": Self.entry("Flat")])
            ])
            #expect(result.applications.map(\.name) == ["Flat"])
        }
    }

    @Test func hiddenMasksALowerEntry() {
        let result = Self.scan([
            ("/home/u/.local/share/applications", ["browser.desktop": "[Desktop Entry]\nHidden=true\n"]),
            ("/usr/share/applications", ["browser.desktop": Self.entry("Browser")]),
        ])
        #expect(result.applications.isEmpty)
        #expect(result.errors.isEmpty)
        #expect(result.skipped.map(\.desktopID) == ["browser.desktop"])
    }

    /// (extra keys, kept?): only TryExec and the Exec program decide; the menu keys do not,
    /// as GIO lists such entries among a type's handlers too.
    @Test(
        arguments: [
            ("NoDisplay=true\n", true),
            ("TryExec=present\n", true),
            ("TryExec=missing-program\n", false),
            ("OnlyShowIn=KDE;\n", true),
            ("NotShowIn=GNOME;\n", true),
        ] as [(String, Bool)])
    func loadingRules(extra: String, kept: Bool) {
        let result = Self.scan([("/usr/share/applications", ["a.desktop": Self.entry("A", extra)])])
        #expect(result.applications.count == (kept ? 1 : 0))
        #expect(result.skipped.count == (kept ? 0 : 1))
        #expect(result.errors.isEmpty)
        if kept { #expect(result.applications.first?.noDisplay == extra.contains("NoDisplay=true")) }
    }

    @Test func aMissingExecProgramSkipsTheEntry() {
        let result = Self.scan([
            ("/usr/share/applications", ["a.desktop": Self.entry("A", exec: "missing-app %u")])
        ])
        #expect(result.applications.isEmpty)
        #expect(result.skipped.map(\.reason) == ["the Exec program 'missing-app' is not on PATH"])
    }

    @Test func aUserCopyThatDoesNotLoadLeavesTheSystemCopyAsGIODoes() {
        let result = Self.scan([
            (
                "/home/u/.local/share/applications",
                ["browser.desktop": Self.entry("User", "TryExec=missing-browser\n")]
            ),
            ("/usr/share/applications", ["browser.desktop": Self.entry("System")]),
        ])
        #expect(result.applications.map(\.name) == ["System"])
        #expect(result.applications.first?.directory == "/usr/share/applications")
        // The user's file still masks the system file's MimeType= lines (its id is present).
        #expect(result.directories.map(\.desktopIDs) == [["browser.desktop"], ["browser.desktop"]])
    }

    @Test func terminalPathAndDBusKeys() throws {
        let result = Self.scan([
            (
                "/usr/share/applications",
                [
                    "mutt.desktop": Self.entry("Mutt", "Terminal=true\nPath=/var/mail\n", exec: "mutt %u"),
                    "vendor/org.example.Chat.desktop": Self.entry(
                        "Chat", "DBusActivatable=true\nStartupNotify=true\n", exec: "chat %U"),
                    "org.example.NoExec.desktop":
                        "[Desktop Entry]\nType=Application\nName=No Exec\nDBusActivatable=true\n",
                    "not-a-bus-name.desktop": Self.entry("Plain", "DBusActivatable=true\n"),
                    "empty-path.desktop": Self.entry("Empty", "Path=\n"),
                ]
            )
        ])
        #expect(result.errors.isEmpty)
        let apps = Dictionary(uniqueKeysWithValues: result.applications.map { ($0.desktopID, $0) })
        let mutt = try #require(apps["mutt.desktop"])
        #expect(mutt.launch == .exec(argv: ["mutt", "{url}"], workingDirectory: "/var/mail", terminal: true))
        let chat = try #require(apps["vendor-org.example.Chat.desktop"])
        #expect(chat.busName == "org.example.Chat")
        #expect(chat.startupNotify)
        #expect(chat.launch == .dbus(busName: "org.example.Chat", objectPath: "/org/example/Chat"))
        #expect(
            apps["org.example.NoExec.desktop"]?.launch
                == .dbus(busName: "org.example.NoExec", objectPath: "/org/example/NoExec"))
        #expect(
            apps["not-a-bus-name.desktop"]?.launch
                == .exec(argv: ["app", "{url}"], workingDirectory: nil, terminal: false))
        #expect(apps["empty-path.desktop"]?.workingDirectory == nil)
    }

    @Test func objectPathsFromBusNames() {
        #expect(DesktopLaunch.objectPath(forBusName: "org.example.Foo-Bar") == "/org/example/Foo_Bar")
        #expect(DesktopLaunch.busName(forDesktopFilePath: "/a/kde4/org.kde.App.desktop") == "org.kde.App")
        #expect(DesktopLaunch.busName(forDesktopFilePath: "/a/1org.x.desktop") == nil)
    }

    @Test func terminalsInOrder() {
        #expect(
            TerminalEmulator.prefixes(environment: ["TERMINAL": "alacritty"]).map { $0[0] } == [
                "alacritty", "x-terminal-emulator", "gnome-terminal", "konsole", "xterm",
            ])
        #expect(TerminalEmulator.prefixes(environment: [:]).first == ["x-terminal-emulator", "-e"])
        #expect(TerminalEmulator.prefixes(environment: [:])[1] == ["gnome-terminal", "--"])
    }

    @Test func nonApplicationsAndEntriesWithoutExecAreSkipped() {
        let result = Self.scan([
            (
                "/usr/share/applications",
                [
                    "link.desktop": "[Desktop Entry]\nType=Link\nName=L\nURL=https://example.org/\n",
                    "dbus.desktop": "[Desktop Entry]\nType=Application\nName=D\nDBusActivatable=true\n",
                    "dir.directory": "[Desktop Entry]\nType=Directory\nName=Dir\n",
                ]
            )
        ])
        #expect(result.applications.isEmpty)
        #expect(Set(result.skipped.map(\.desktopID)) == ["link.desktop", "dbus.desktop"])
    }

    @Test func brokenFilesAreReportedWithLinesAndOthersLoad() {
        let result = Self.scan([
            (
                "/usr/share/applications",
                [
                    "good.desktop": Self.entry("Good"),
                    "dup.desktop": "[Desktop Entry]\nType=Application\nName=A\nName=B\nExec=a\n",
                    "quote.desktop": Self.entry("Q", exec: "app \"unterminated %u"),
                    "shell.desktop": Self.entry("S", exec: "sh -c \"open %u\""),
                    "noname.desktop": "[Desktop Entry]\nType=Application\nExec=a\n",
                    "bool.desktop": Self.entry("B", "NoDisplay=1\n"),
                    "bad id.desktop": Self.entry("Space"),
                ]
            )
        ])
        #expect(result.applications.map(\.desktopID) == ["good.desktop"])
        #expect(
            Set(result.errors.map { "\($0.fileName):\($0.line.map(String.init) ?? "-")" }) == [
                "/usr/share/applications/dup.desktop:4",
                "/usr/share/applications/quote.desktop:4",
                "/usr/share/applications/shell.desktop:4",
                "/usr/share/applications/noname.desktop:-",
                "/usr/share/applications/bool.desktop:5",
                "/usr/share/applications/bad id.desktop:-",
            ])
    }

    @Test func aBrokenUserOverrideIsReportedAndTheSystemFileLoadsAsInGIO() {
        let result = Self.scan([
            (
                "/home/u/.local/share/applications",
                ["browser.desktop": "[Desktop Entry]\nType=Application\nName=A\nName=B\n"]
            ),
            ("/usr/share/applications", ["browser.desktop": Self.entry("System Browser")]),
        ])
        #expect(result.applications.map(\.name) == ["System Browser"])
        #expect(
            result.errors.map(\.description) == [
                "/home/u/.local/share/applications/browser.desktop:4: duplicate key 'Name' in group [Desktop Entry]"
            ])
    }

    @Test func localFileOnlyHandlersHaveNoTemplate() throws {
        let result = Self.scan([
            (
                "/usr/share/applications",
                [
                    "viewer.desktop": Self.entry(
                        "Viewer", "MimeType=x-scheme-handler/file;image/png;\n", exec: "viewer %F"),
                    "plain.desktop": Self.entry(
                        "Plain", "MimeType=x-scheme-handler/https;\n", exec: "plain --new"),
                ]
            )
        ])
        let plain = try #require(result.applications.first { $0.desktopID == "plain.desktop" })
        let viewer = try #require(result.applications.first { $0.desktopID == "viewer.desktop" })
        #expect(viewer.argvTemplate == nil)
        #expect(!viewer.canOpenURLs)
        #expect(viewer.mimeTypes == ["x-scheme-handler/file", "image/png"])
        #expect(plain.argvTemplate == ["plain", "--new"])
        #expect(!plain.canOpenURLs)
    }

    /// A literal `{url}` in the Exec line is escaped to `{{url}}` in the template, which
    /// contains the text "{url}": it was offered, then launched without the URL.
    @Test func aLiteralBraceURLWithoutAFieldCodeIsNotOffered() throws {
        let result = Self.scan([
            (
                "/usr/share/applications",
                [
                    "literal.desktop": Self.entry(
                        "Literal", "MimeType=x-scheme-handler/https;\n", exec: "literal --page={url}"),
                    "both.desktop": Self.entry(
                        "Both", "MimeType=x-scheme-handler/https;\n", exec: "both --page={url} %u"),
                ]
            )
        ])
        let literal = try #require(result.applications.first { $0.desktopID == "literal.desktop" })
        #expect(literal.argvTemplate == ["literal", "--page={{url}}"])
        #expect(literal.urlFieldCode == nil)
        #expect(literal.launch == nil)
        #expect(!literal.canOpenURLs)
        let both = try #require(result.applications.first { $0.desktopID == "both.desktop" })
        #expect(both.urlFieldCode == "u")
        #expect(
            both.launch
                == .exec(argv: ["both", "--page={{url}}", "{url}"], workingDirectory: nil, terminal: false))
    }

    @Test func scannerOutputFeedsTheMimeAppsResolver() {
        let result = Self.scan([
            (
                "/home/u/.local/share/applications",
                ["mine.desktop": Self.entry("Mine", "MimeType=x-scheme-handler/https;\n")]
            ),
            (
                "/usr/share/applications",
                [
                    "firefox.desktop": Self.entry("Firefox", "MimeType=x-scheme-handler/https;\n"),
                    "mine.desktop": Self.entry("Mine (system)", "MimeType=text/plain;\n"),
                ]
            ),
        ])
        let resolver = MimeAppsResolver(
            files: MimeAppsList.candidatePaths(
                configHome: "/home/u/.config", configDirs: [], dataHome: "/home/u/.local/share",
                dataDirs: ["/usr/share"],
                currentDesktops: []
            ).map {
                (
                    $0,
                    $0 == "/usr/share/applications/mimeapps.list"
                        ? "[Default Applications]\nx-scheme-handler/https=firefox.desktop\n" : ""
                )
            },
            directories: result.directories)
        let installed = Set(result.applications.map(\.desktopID))
        #expect(
            resolver.defaultApplication(for: "x-scheme-handler/https", installed: installed)
                == "firefox.desktop")
        // The user's mine.desktop masks the system one, whose MimeType= does not count.
        #expect(
            resolver.associatedApplications(for: "x-scheme-handler/https") == [
                "mine.desktop", "firefox.desktop",
            ])
        #expect(resolver.associatedApplications(for: "text/plain").isEmpty)
    }

    @Test func applicationDirectoriesFromEnvironment() {
        #expect(
            DesktopApplicationScanner.applicationDirectories(
                environment: ["XDG_DATA_HOME": "/d"], home: "/home/u") == [
                    "/d/applications", "/usr/local/share/applications", "/usr/share/applications",
                ])
    }
}
