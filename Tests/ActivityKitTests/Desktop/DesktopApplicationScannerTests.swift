// Tests of the application scanner: desktop ids, masking, Hidden/NoDisplay/TryExec/OnlyShowIn, schemes and errors.
import Testing

@testable import ActivityKit

@Suite struct DesktopApplicationScannerTests {
    static func entry(_ name: String, _ extra: String = "", exec: String = "app %u") -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n\(extra)"
    }

    static func scan(
        _ dirs: [(String, [String: String])], desktops: [String] = ["GNOME"], executables: Set<String> = ["present"]
    ) -> DesktopApplicationScanner.Result {
        DesktopApplicationScanner.scan(
            dirs.map { DesktopApplicationScanner.Directory(path: $0.0, files: $0.1) }, currentDesktops: desktops,
            locale: "de_DE.UTF-8", hasExecutable: { executables.contains($0) })
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

    @Test(arguments: [
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
            ("/usr/share/applications", ["vendor/app.desktop": Self.entry("System"), "other.desktop": Self.entry("Other")]),
        ])
        #expect(result.applications.map(\.name) == ["User Copy", "Other"])
        #expect(result.applications.map(\.desktopID) == ["vendor-app.desktop", "other.desktop"])
    }

    @Test func sameIDTwiceInOneDirectoryResolvesDeterministically() {
        for _ in 0..<5 {
            let result = Self.scan([("/apps", ["a/b.desktop": Self.entry("Nested"), "a-b.desktop": Self.entry("Flat")])])
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

    /// (extra keys, desktops, kept?)
    @Test(arguments: [
        ("NoDisplay=true\n", ["GNOME"], true),
        ("TryExec=present\n", ["GNOME"], true),
        ("TryExec=missing\n", ["GNOME"], false),
        ("OnlyShowIn=GNOME;\n", ["GNOME"], true),
        ("OnlyShowIn=KDE;\n", ["GNOME"], false),
        ("OnlyShowIn=KDE;\n", [], false),
        ("OnlyShowIn=GNOME;\n", ["ubuntu", "GNOME"], true),
        ("OnlyShowIn=gnome;\n", ["GNOME"], false),
        ("NotShowIn=GNOME;\n", ["GNOME"], false),
        ("NotShowIn=KDE;\n", ["GNOME"], true),
        ("NotShowIn=KDE;\n", ["KDE", "GNOME"], false),
        ("OnlyShowIn=GNOME;\nNotShowIn=KDE;\n", ["GNOME", "KDE"], true),
        ("OnlyShowIn=GNOME;\nNotShowIn=KDE;\n", ["KDE", "GNOME"], false),
    ] as [(String, [String], Bool)])
    func visibilityRules(extra: String, desktops: [String], kept: Bool) {
        let result = Self.scan([("/usr/share/applications", ["a.desktop": Self.entry("A", extra)])], desktops: desktops)
        #expect(result.applications.count == (kept ? 1 : 0))
        #expect(result.skipped.count == (kept ? 0 : 1))
        #expect(result.errors.isEmpty)
        if kept { #expect(result.applications.first?.noDisplay == extra.contains("NoDisplay=true")) }
    }

    @Test func nonApplicationsAndEntriesWithoutExecAreSkipped() {
        let result = Self.scan([("/usr/share/applications", [
            "link.desktop": "[Desktop Entry]\nType=Link\nName=L\nURL=https://example.org/\n",
            "dbus.desktop": "[Desktop Entry]\nType=Application\nName=D\nDBusActivatable=true\n",
            "dir.directory": "[Desktop Entry]\nType=Directory\nName=Dir\n",
        ])])
        #expect(result.applications.isEmpty)
        #expect(Set(result.skipped.map(\.desktopID)) == ["link.desktop", "dbus.desktop"])
    }

    @Test func brokenFilesAreReportedWithLinesAndOthersLoad() {
        let result = Self.scan([("/usr/share/applications", [
            "good.desktop": Self.entry("Good"),
            "dup.desktop": "[Desktop Entry]\nType=Application\nName=A\nName=B\nExec=a\n",
            "quote.desktop": Self.entry("Q", exec: "app \"unterminated %u"),
            "shell.desktop": Self.entry("S", exec: "sh -c \"open %u\""),
            "noname.desktop": "[Desktop Entry]\nType=Application\nExec=a\n",
            "bool.desktop": Self.entry("B", "NoDisplay=1\n"),
            "bad id.desktop": Self.entry("Space"),
        ])])
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

    @Test func aBrokenUserOverrideIsReportedNotReplacedByTheSystemFile() {
        let result = Self.scan([
            ("/home/u/.local/share/applications", ["browser.desktop": "[Desktop Entry]\nType=Application\nName=A\nName=B\n"]),
            ("/usr/share/applications", ["browser.desktop": Self.entry("System Browser")]),
        ])
        #expect(result.applications.isEmpty)
        #expect(result.errors.map(\.description) == [
            "/home/u/.local/share/applications/browser.desktop:4: duplicate key 'Name' in group [Desktop Entry]"
        ])
    }

    @Test func localFileOnlyHandlersHaveNoTemplate() throws {
        let result = Self.scan([("/usr/share/applications", [
            "viewer.desktop": Self.entry("Viewer", "MimeType=x-scheme-handler/file;image/png;\n", exec: "viewer %F"),
            "plain.desktop": Self.entry("Plain", "MimeType=x-scheme-handler/https;\n", exec: "plain --new"),
        ])])
        let plain = try #require(result.applications.first { $0.desktopID == "plain.desktop" })
        let viewer = try #require(result.applications.first { $0.desktopID == "viewer.desktop" })
        #expect(viewer.argvTemplate == nil)
        #expect(!viewer.canOpenURLs)
        #expect(viewer.mimeTypes == ["x-scheme-handler/file", "image/png"])
        #expect(plain.argvTemplate == ["plain", "--new"])
        #expect(!plain.canOpenURLs)
    }

    @Test func scannerOutputFeedsTheMimeAppsResolver() {
        let result = Self.scan([
            ("/home/u/.local/share/applications", ["mine.desktop": Self.entry("Mine", "MimeType=x-scheme-handler/https;\n")]),
            ("/usr/share/applications", [
                "firefox.desktop": Self.entry("Firefox", "MimeType=x-scheme-handler/https;\n"),
                "mine.desktop": Self.entry("Mine (system)", "MimeType=text/plain;\n"),
            ]),
        ])
        let resolver = MimeAppsResolver(files: MimeAppsList.candidatePaths(
            configHome: "/home/u/.config", configDirs: [], dataHome: "/home/u/.local/share", dataDirs: ["/usr/share"],
            currentDesktops: []
        ).map { ($0, $0 == "/usr/share/applications/mimeapps.list" ? "[Default Applications]\nx-scheme-handler/https=firefox.desktop\n" : "") })
        let installed = result.applications.map(\.mimeAppsEntry)
        #expect(resolver.defaultApplication(for: "x-scheme-handler/https", installed: installed) == "firefox.desktop")
        #expect(resolver.associatedApplications(for: "x-scheme-handler/https", installed: installed) == ["mine.desktop", "firefox.desktop"])
    }

    @Test func applicationDirectoriesFromEnvironment() {
        #expect(
            DesktopApplicationScanner.applicationDirectories(environment: ["XDG_DATA_HOME": "/d"], home: "/home/u") == [
                "/d/applications", "/usr/local/share/applications", "/usr/share/applications",
            ])
        #expect(DesktopApplicationScanner.currentDesktops(from: "ubuntu:GNOME") == ["ubuntu", "GNOME"])
    }
}
