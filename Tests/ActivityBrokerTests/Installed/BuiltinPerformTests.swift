// Every built-in share URL, performed through the real broker, reaches the opener exactly.
import DBus
import Foundation
import Testing

@Suite struct BuiltinPerformTests {
    static let url = "https://example.org/a?b=c&d=e"
    static let encoded = "https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d%3De"

    @Test func theDefaultSheetOffersWhatADesktopUserExpects() async throws {
        let session = try await InstalledSession()
        _ = try session.recordingProgram("wl-copy")
        try await session.startBroker(environment: ["WAYLAND_DISPLAY": "wayland-test"])
        let offered = Set(try await session.offered("https://example.org"))
        let expected: Set<String> = [
            "copy-link", "open-in-browser", "email-link", "telegram", "whatsapp", "x", "bluesky", "reddit",
            "linkedin", "hacker-news", "facebook",
        ]
        #expect(offered.isSuperset(of: expected.map { "org.activitybroker." + $0 }))
    }

    @Test(arguments: [
        ("telegram", "https://t.me/share/url?url=\(encoded)&text="),
        ("whatsapp", "https://wa.me/?text=%20\(encoded)"),
        ("x", "https://twitter.com/intent/tweet?text=&url=\(encoded)"),
        ("bluesky", "https://bsky.app/intent/compose?text=%20\(encoded)"),
        ("reddit", "https://www.reddit.com/submit?url=\(encoded)&title="),
        ("linkedin", "https://www.linkedin.com/sharing/share-offsite/?url=\(encoded)"),
        ("hacker-news", "https://news.ycombinator.com/submitlink?u=\(encoded)&t="),
        ("facebook", "https://www.facebook.com/sharer/sharer.php?u=\(encoded)"),
        ("email-link", "mailto:?subject=&body=\(encoded)"),
        ("open-in-browser", url),
    ])
    func performsThroughTheOpener(name: String, expected: String) async throws {
        let session = try await InstalledSession()
        try await session.startBroker()
        let (state, results) = try await session.perform("org.activitybroker." + name, url: Self.url)
        #expect(state == "completed", "\(results)")
        #expect(session.recorded("opener") == expected + "\n")
        #expect(!session.log.contains(Self.url))
    }
}
