// SessionLoadingTests: the session takes its pages from the PageLoading it is given and keeps them.

import Foundation
import Navigation
import Testing

@Suite("Session over a given page source")
struct SessionLoadingTests {
    let first = URL(string: "https://www.example.com/a")!
    let second = URL(string: "https://www.example.com/b")!

    func page(_ url: URL, title: String) -> LoadedPage {
        LoadedPage(requestedURL: url, finalURL: url, metadata: PageMetadata(title: title))
    }

    /// An opener that must never be used by these tests.
    struct UnusedOpener: URLOpening {
        func open(_ url: URL) async throws { Issue.record("opened \(url)") }
    }

    @Test func historyMovesShowKeptPagesAndOnlyReloadLoadsAgain() async throws {
        let pages = ScriptedPages([page(first, title: "A"), page(second, title: "B")])
        let session = NavigationSession(url: first, loader: pages, opener: UnusedOpener())
        try await session.start()
        try await session.navigate(to: second)
        #expect(try await session.goBack())
        #expect(await session.title == "A")
        #expect(try await session.goForward())
        #expect(await session.title == "B")
        #expect(await pages.requested == [first, second])
        try await session.reload()
        #expect(await pages.requested == [first, second, second])
    }

    @Test func redirectedPageShowsItsFinalAddressAndChainIndicator() async throws {
        let requested = URL(string: "http://example.com/start")!
        let final = URL(string: "https://news.example.co.uk/story")!
        let redirected = LoadedPage(
            requestedURL: requested, finalURL: final,
            redirects: [Redirect(from: requested, to: final, statusCode: 301)],
            metadata: PageMetadata(canonicalURL: URL(string: "https://example.co.uk/story")!))
        let session = NavigationSession(
            url: requested, loader: ScriptedPages([redirected]), opener: UnusedOpener())
        try await session.start()
        #expect(await session.currentURL == final)
        #expect(await session.security == .secure)
        #expect(await session.address?.registrableDomain == "example.co.uk")
        #expect(await session.shareURL == URL(string: "https://example.co.uk/story")!)
    }

    @Test func failedLoadFromTheSourceIsKeptAsAnEntry() async throws {
        let session = NavigationSession(url: first, loader: ScriptedPages([]), opener: UnusedOpener())
        await #expect(throws: NavigationError.self) { try await session.start() }
        #expect(await session.loadError == .httpStatus(404, url: first))
        #expect(await session.security == .notSecure)
        #expect(await session.currentURL == first)
    }
}
