// Tests of per-scheme handlers and defaults: named defaults count only for their own scheme.
import Testing

@testable import ActivityKit

@Suite struct DesktopHandlersTests {
    static let user = "/home/u/.local/share/applications"
    static let system = "/usr/share/applications"

    static func entry(_ name: String, _ mimeTypes: String) -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=app %u\nMimeType=\(mimeTypes)\n"
    }

    /// The handlers of a small session: two browsers, a mail client, an ftp-only client.
    static func handlers(mimeapps: String = "", userMimeapps: String = "") -> DesktopHandlers {
        let scan = DesktopApplicationScanner.scan(
            [
                .init(path: user, files: [:]),
                .init(
                    path: system,
                    files: [
                        "chromium.desktop": entry(
                            "Chromium", "x-scheme-handler/http;x-scheme-handler/https;"),
                        "firefox.desktop": entry("Firefox", "x-scheme-handler/http;x-scheme-handler/https;"),
                        "evolution.desktop": entry(
                            "Evolution", "x-scheme-handler/mailto;x-scheme-handler/webcal;"),
                        "falkon.desktop": entry("Falkon", "x-scheme-handler/ftp;"),
                        "thunderbird.desktop": entry(
                            "Thunderbird", "x-scheme-handler/mailto;x-scheme-handler/webcal;"),
                    ]),
            ], locale: nil, hasExecutable: { _ in true })
        let files = MimeAppsList.candidatePaths(
            configHome: "/home/u/.config", configDirs: [], dataHome: "/home/u/.local/share",
            dataDirs: ["/usr/share"],
            currentDesktops: []
        ).map { path in
            (
                path,
                path == "/home/u/.config/mimeapps.list"
                    ? userMimeapps : path == system + "/mimeapps.list" ? mimeapps : ""
            )
        }
        return DesktopHandlers(
            applications: scan.applications,
            resolver: MimeAppsResolver(files: files, directories: scan.directories))
    }

    @Test func splitDefaultsStayWithTheirScheme() {
        let handlers = Self.handlers(
            userMimeapps:
                "[Default Applications]\nx-scheme-handler/https=chromium.desktop\nx-scheme-handler/http=firefox.desktop\nx-scheme-handler/mailto=evolution.desktop\n"
        )
        #expect(handlers.defaults["https"] == "chromium.desktop")
        #expect(handlers.defaults["http"] == "firefox.desktop")
        #expect(handlers.defaults["mailto"] == "evolution.desktop")
        // The mailto default gives Evolution nothing for webcal: the most preferred associated app.
        #expect(handlers.defaults["webcal"] == "evolution.desktop")
        #expect(handlers.defaultApplication(for: "HTTP")?.name == "Firefox")
    }

    @Test func withoutMimeappsTheFallbackIsPerSchemeToo() {
        let handlers = Self.handlers()
        #expect(handlers.defaults["https"] == "chromium.desktop")
        #expect(handlers.defaults["ftp"] == "falkon.desktop")
        #expect(handlers.handlers["https"] == ["chromium.desktop", "firefox.desktop"])
        #expect(handlers.schemes(handledBy: "falkon.desktop") == ["ftp"])
    }

    @Test func addedAndRemovedAssociationsChangeTheHandlers() {
        let handlers = Self.handlers(
            userMimeapps:
                "[Added Associations]\nx-scheme-handler/https=falkon.desktop;\n[Removed Associations]\nx-scheme-handler/https=chromium.desktop;\n"
        )
        #expect(handlers.handlers["https"] == ["falkon.desktop", "firefox.desktop"])
        #expect(handlers.defaults["https"] == "falkon.desktop")
        #expect(handlers.schemes(handledBy: "falkon.desktop") == ["ftp", "https"])
        #expect(handlers.schemes(handledBy: "chromium.desktop") == ["http"])
    }

    @Test func aNamedDefaultThatDoesNotHandleTheSchemeIsNotTheDefault() {
        let handlers = Self.handlers(
            mimeapps: "[Default Applications]\nx-scheme-handler/https=evolution.desktop;firefox.desktop\n")
        #expect(handlers.defaults["https"] == "firefox.desktop")
    }
}
