// PageLoading: where a navigation session gets its pages; the terminal's loader implements it.

import Foundation

/// Loads pages for a `NavigationSession`, which is given one and never fetches or parses a
/// page itself: the session model knows no transport and no HTML. The terminal's
/// `PageLoader` (TextPages) fetches a page and reads its HTML; a browser window has its web
/// view for that and reports what it loaded.
public protocol PageLoading: Sendable {
    /// Loads `url` and says what the page is: where it ended up, the redirects on the way,
    /// its title, canonical URL, links and reader text.
    ///
    /// - Throws: `PageLoadError`. The session cancels the calling task when a newer
    ///   navigation supersedes the load; the load should then stop and throw `cancelled`.
    func load(_ url: URL) async throws(PageLoadError) -> LoadedPage
}
