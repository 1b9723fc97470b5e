// Installed applications become "Open in <App>" activities (API.md §4.1), launched without a shell.
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct DesktopApplicationTests {
    /// A session with a handful of desktop entries covering the specification's rules.
    static func session(mimeapps: String? = nil) async throws -> InstalledSession {
        let session = try await InstalledSession()
        let recorder = try session.recordingProgram("viewer")
        let applications = session.dataHome + "/applications"
        func entry(_ name: String, _ lines: String) throws {
            try session.write(applications + "/" + name, "[Desktop Entry]\nType=Application\n" + lines + "\n")
        }
        try entry(
            "org.example.Gemini.desktop",
            "Name=Gemini Viewer\nName[de]=Gemini-Betrachter\nExec=\(recorder) --new-window %u\nMimeType=x-scheme-handler/gemini;"
        )
        try entry(
            "org.example.Lagrange.desktop",
            "Name=Lagrange\nExec=\"\(recorder)\" \"two words\" %U\nMimeType=x-scheme-handler/gemini;")
        try entry(
            "hidden.desktop",
            "Name=Hidden\nHidden=true\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry(
            "nodisplay.desktop",
            "Name=Quiet\nNoDisplay=true\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry(
            "tryexec.desktop",
            "Name=Missing\nTryExec=/nonexistent/program\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;"
        )
        try entry(
            "kde-only.desktop",
            "Name=KDE Only\nOnlyShowIn=KDE;\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry(
            "not-gnome.desktop",
            "Name=Not GNOME\nNotShowIn=GNOME;\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try session.write(
            applications + "/broken.desktop", "[Desktop Entry]\nName=Broken\nthis line is not a key\n")
        try entry(
            "org.example.Browser.desktop",
            "Name=Browsy\nExec=\(recorder) %u\nMimeType=x-scheme-handler/https;x-scheme-handler/http;")
        if let mimeapps { try session.write(session.configHome + "/mimeapps.list", mimeapps) }
        try await session.startBroker(environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        return session
    }

    /// Hidden and a missing TryExec hide an entry; NoDisplay, OnlyShowIn and NotShowIn do not
    /// (they are about menus: GIO lists such handlers too).
    @Test func handlersOfTheSchemeAreOfferedAndTheRulesHold() async throws {
        let session = try await Self.session()
        let offered = try await session.offered("gemini://example.org/")
        #expect(
            Set(offered) == [
                "desktop.org.example.Gemini", "desktop.org.example.Lagrange", "desktop.nodisplay",
                "desktop.kde-only",
                "desktop.not-gnome",
            ])
        // The broker's standard error reaches us through a pipe that this process reads on a
        // thread of its own, so the line may still be on its way when the reply is here.
        try await waitUntil("the broken entry logged") { session.log.contains("broken.desktop:3") }
    }

    /// The walk bounds names, not bytes: links to one file of almost 1 MiB made as many MiB of
    /// text to hold at once. Past the budget (64 MiB in the broker, 4 MiB here) the rest of one
    /// directory is not read, with a line.
    @Test func oneDirectorysDesktopFilesAreReadWithinOneByteBudget() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let applications = directory.file("applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        let text = "[Desktop Entry]\n#" + String(repeating: "x", count: (1 << 20) - 100) + "\n"
        #expect(FileManager.default.createFile(atPath: directory.file("big.txt"), contents: Data(text.utf8)))
        for index in 0..<10 {
            try FileManager.default.createSymbolicLink(
                atPath: applications + "/big-\(index).desktop", withDestinationPath: directory.file("big.txt")
            )
        }
        let listing = DesktopApplicationsSource.desktopFiles(under: applications, byteBudget: 4 << 20)
        #expect(listing.files.count == 5, "\(listing.files.keys.sorted())")
        #expect(listing.problems.map(\.message) == ["5 desktop files not read: over 4194304 bytes together"])
    }

    @Test func namesAreLocalized() async throws {
        let session = try await Self.session()
        let english = try await session.record("desktop.org.example.Gemini", for: "gemini://example.org/")
        #expect(english?["name"]?.string == "Open in Gemini Viewer")
        #expect(english?["origin"]?.string == "desktop")
        #expect(english?["category"]?.string == "action")
        let german = try await session.record(
            "desktop.org.example.Gemini", for: "gemini://example.org/", locale: "de_DE.UTF-8")
        #expect(german?["name"]?.string == "In Gemini-Betrachter öffnen")
    }

    @Test func theMimeappsDefaultRanksFirst() async throws {
        let session = try await Self.session(
            mimeapps: "[Default Applications]\nx-scheme-handler/gemini=org.example.Lagrange.desktop\n")
        let offered = try await session.offered("gemini://example.org/")
        #expect(offered.first == "desktop.org.example.Lagrange")
    }

    @Test func theLaunchedEntryReceivesTheURLAsOneArgument() async throws {
        let session = try await Self.session()
        let url = "gemini://example.org/a b?x=$(touch /tmp/pwned)&y=;id"
            .replacingOccurrences(of: " ", with: "%20")
        let (state, _) = try await session.perform("desktop.org.example.Lagrange", url: url)
        #expect(state == "completed")
        #expect(try await session.awaitRecorded("viewer") == "two words\n\(url)\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    }

    @Test func theDefaultBrowserNamesOpenInBrowser() async throws {
        let session = try await Self.session(
            mimeapps: "[Default Applications]\nx-scheme-handler/https=org.example.Browser.desktop\n")
        let record = try await session.record(
            "org.activitybroker.open-in-browser", for: "https://example.org/")
        #expect(record?["name"]?.string == "Open in Browsy")
        #expect(try await !session.offered("https://example.org/").contains("desktop.org.example.Browser"))
    }

    @Test func anEntryAddedAtRunTimeIsPickedUp() async throws {
        let session = try await Self.session()
        let changed = Inbox<IncomingSignal>()
        _ = session.client.addMatch(
            DBus.MatchRule(interface: "org.activitybroker.Broker1", member: "ActivitiesChanged")
        ) {
            changed.put($0)
        }
        _ = try await session.call("ListRegistered", [.vardict([:])])  // the match is in place
        try session.write(
            session.dataHome + "/applications/late.desktop",
            "[Desktop Entry]\nType=Application\nName=Late\nExec=/bin/true %u\nMimeType=x-scheme-handler/gemini;\n"
        )
        _ = try await changed.next("ActivitiesChanged")
        // Under load the watcher may report the temporary file and the rename apart: the entry
        // shows with the reload that saw the rename, which may be the next one.
        try await waitUntil("desktop.late to be offered") {
            try await session.offered("gemini://example.org/").contains("desktop.late")
        }
    }

    // MARK: - Split defaults (issue 12)

    /// Two browsers with different defaults for http and https, and `share` run against them.
    static func splitDefaults() async throws -> InstalledSession {
        let session = try await InstalledSession()
        let recorder = try session.recordingProgram("browser")
        for (file, name) in [("chromium.desktop", "Chromium"), ("firefox.desktop", "Firefox")] {
            try session.write(
                session.dataHome + "/applications/" + file,
                "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(recorder) %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n"
            )
        }
        try session.write(
            session.configHome + "/mimeapps.list",
            "[Default Applications]\nx-scheme-handler/https=chromium.desktop\nx-scheme-handler/http=firefox.desktop\n"
        )
        try await session.startBroker()
        return session
    }

    /// `share list URL` as lines of "name … id".
    static func shareList(_ session: InstalledSession, _ url: String) async throws -> [String] {
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["--bus", session.bus.address, "list", url],
            environment: ["HOME": session.home, "PATH": "/usr/bin:/bin", "TERM": "dumb"])
        #expect(run.termination == .exited(0), "\(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func shareListNamesEachSchemesOwnDefaultAndOffersTheOtherBrowser() async throws {
        let session = try await Self.splitDefaults()
        func line(_ lines: [String], _ id: String) -> String? { lines.first { $0.hasSuffix(" " + id) } }

        let https = try await Self.shareList(session, "https://example.org/")
        #expect(
            line(https, "org.activitybroker.open-in-browser")?.contains("Open in Chromium") == true,
            "\(https)")
        #expect(line(https, "desktop.firefox")?.contains("Open in Firefox") == true, "\(https)")
        #expect(line(https, "desktop.chromium") == nil, "Chromium stands behind Open in Browser: \(https)")

        let http = try await Self.shareList(session, "http://example.org/")
        #expect(
            line(http, "org.activitybroker.open-in-browser")?.contains("Open in Firefox") == true, "\(http)")
        #expect(line(http, "desktop.chromium")?.contains("Open in Chromium") == true, "\(http)")
        #expect(line(http, "desktop.firefox") == nil, "Firefox stands behind Open in Browser: \(http)")
    }

    @Test func aDefaultForOneSchemeGivesNothingForAnother() async throws {
        let session = try await InstalledSession()
        let recorder = try session.recordingProgram("app")
        let applications = session.dataHome + "/applications/"
        try session.write(
            applications + "evolution.desktop",
            "[Desktop Entry]\nType=Application\nName=Evolution\nExec=\(recorder) %u\nMimeType=x-scheme-handler/mailto;x-scheme-handler/webcal;\n"
        )
        try session.write(
            applications + "calendar.desktop",
            "[Desktop Entry]\nType=Application\nName=Calendar\nExec=\(recorder) %u\nMimeType=x-scheme-handler/webcal;\n"
        )
        try session.write(
            session.configHome + "/mimeapps.list",
            "[Default Applications]\nx-scheme-handler/mailto=evolution.desktop\n")
        try await session.startBroker()
        // webcal has no named default: the most preferred associated entry (GIO's pick) ranks first.
        #expect(
            try await session.offered("webcal://example.org/a.ics").filter { $0.hasPrefix("desktop.") } == [
                "desktop.calendar", "desktop.evolution",
            ])
        #expect(
            try await session.offered("mailto:a@example.org").first { $0.hasPrefix("desktop.") }
                == "desktop.evolution")
    }

    @Test func associationsOfMimeappsListAreApplied() async throws {
        let session = try await InstalledSession()
        let recorder = try session.recordingProgram("app")
        let applications = session.dataHome + "/applications/"
        try session.write(
            applications + "a.desktop",
            "[Desktop Entry]\nType=Application\nName=A\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;\n"
        )
        try session.write(
            applications + "b.desktop",
            "[Desktop Entry]\nType=Application\nName=B\nExec=\(recorder) %u\nMimeType=text/plain;\n")
        try session.write(
            session.configHome + "/mimeapps.list",
            "[Added Associations]\nx-scheme-handler/gemini=b.desktop;\n[Removed Associations]\nx-scheme-handler/gemini=a.desktop;\n"
        )
        try await session.startBroker()
        #expect(
            try await session.offered("gemini://example.org/").filter { $0.hasPrefix("desktop.") } == [
                "desktop.b"
            ])
    }

    /// A session with one `Terminal=true` mail client and only the session's own programs on PATH.
    static func terminalSession(terminal: Bool) async throws -> InstalledSession {
        let session = try await InstalledSession()
        try FileManager.default.createSymbolicLink(
            atPath: session.bin + "/cat", withDestinationPath: "/bin/cat")
        let mutt = try session.recordingProgram("mutt")
        try session.write(
            session.dataHome + "/applications/mutt.desktop",
            "[Desktop Entry]\nType=Application\nName=Mutt\nTerminal=true\nExec=\(mutt) %u\nMimeType=x-scheme-handler/mailto;\n"
        )
        var environment = ["PATH": session.bin]
        if terminal { environment["TERMINAL"] = try session.recordingProgram("myterm") }
        try await session.startBroker(environment: environment)
        return session
    }

    @Test func aTerminalApplicationRunsInTheTerminalOrIsNotOffered() async throws {
        let without = try await Self.terminalSession(terminal: false)
        #expect(try await !without.offered("mailto:a@example.org").contains("desktop.mutt"))

        let with = try await Self.terminalSession(terminal: true)
        #expect(try await with.offered("mailto:a@example.org").contains("desktop.mutt"))
        let (state, _) = try await with.perform("desktop.mutt", url: "mailto:a@example.org")
        #expect(state == "completed")
        #expect(try await with.awaitRecorded("myterm") == "-e\n\(with.bin)/mutt\nmailto:a@example.org\n")
    }
}
