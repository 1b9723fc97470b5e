// Installed applications become "Open in <App>" activities (API.md §4.1), launched without a shell.
import DBus
import Foundation
import TestSupport
import Testing

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
            "Name=Gemini Viewer\nName[de]=Gemini-Betrachter\nExec=\(recorder) --new-window %u\nMimeType=x-scheme-handler/gemini;")
        try entry("org.example.Lagrange.desktop", "Name=Lagrange\nExec=\"\(recorder)\" \"two words\" %U\nMimeType=x-scheme-handler/gemini;")
        try entry("hidden.desktop", "Name=Hidden\nHidden=true\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry("nodisplay.desktop", "Name=Quiet\nNoDisplay=true\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry("tryexec.desktop", "Name=Missing\nTryExec=/nonexistent/program\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry("kde-only.desktop", "Name=KDE Only\nOnlyShowIn=KDE;\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try entry("not-gnome.desktop", "Name=Not GNOME\nNotShowIn=GNOME;\nExec=\(recorder) %u\nMimeType=x-scheme-handler/gemini;")
        try session.write(applications + "/broken.desktop", "[Desktop Entry]\nName=Broken\nthis line is not a key\n")
        try entry("org.example.Browser.desktop", "Name=Browsy\nExec=\(recorder) %u\nMimeType=x-scheme-handler/https;x-scheme-handler/http;")
        if let mimeapps { try session.write(session.configHome + "/mimeapps.list", mimeapps) }
        try await session.startBroker(environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        return session
    }

    @Test func handlersOfTheSchemeAreOfferedAndTheRulesHold() async throws {
        let session = try await Self.session()
        let offered = try await session.offered("gemini://example.org/")
        #expect(Set(offered) == ["desktop.org.example.Gemini", "desktop.org.example.Lagrange", "desktop.nodisplay"])
        #expect(session.log.contains("broken.desktop:3"))
    }

    @Test func namesAreLocalized() async throws {
        let session = try await Self.session()
        let english = try await session.record("desktop.org.example.Gemini", for: "gemini://example.org/")
        #expect(english?["name"]?.string == "Open in Gemini Viewer")
        #expect(english?["origin"]?.string == "desktop")
        #expect(english?["category"]?.string == "action")
        let german = try await session.record("desktop.org.example.Gemini", for: "gemini://example.org/", locale: "de_DE.UTF-8")
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
        #expect(session.recorded("viewer") == "two words\n\(url)\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    }

    @Test func theDefaultBrowserNamesOpenInBrowser() async throws {
        let session = try await Self.session(
            mimeapps: "[Default Applications]\nx-scheme-handler/https=org.example.Browser.desktop\n")
        let record = try await session.record("org.activitybroker.open-in-browser", for: "https://example.org/")
        #expect(record?["name"]?.string == "Open in Browsy")
        #expect(try await !session.offered("https://example.org/").contains("desktop.org.example.Browser"))
    }

    @Test func anEntryAddedAtRunTimeIsPickedUp() async throws {
        let session = try await Self.session()
        let changed = Inbox<IncomingSignal>()
        _ = session.client.addMatch(DBus.MatchRule(interface: "org.activitybroker.Broker1", member: "ActivitiesChanged")) {
            changed.put($0)
        }
        _ = try await session.call("ListRegistered", [.vardict([:])])  // the match is in place
        try session.write(
            session.dataHome + "/applications/late.desktop",
            "[Desktop Entry]\nType=Application\nName=Late\nExec=/bin/true %u\nMimeType=x-scheme-handler/gemini;\n")
        _ = try await changed.next("ActivitiesChanged", deadline: .seconds(5))
        #expect(try await session.offered("gemini://example.org/").contains("desktop.late"))
    }
}
