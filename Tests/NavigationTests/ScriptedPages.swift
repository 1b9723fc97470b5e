// ScriptedPages: a page source at the session's outer edge that serves pages from memory and records each load.

import Foundation
import Navigation

/// Serves fixed pages by requested URL and records every URL it is asked for, so a test can
/// say how often the session loaded. A URL it has no page for answers 404.
actor ScriptedPages: PageLoading {
    private let pages: [URL: LoadedPage]
    private(set) var requested: [URL] = []

    init(_ pages: [LoadedPage]) {
        self.pages = Dictionary(pages.map { ($0.requestedURL, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func load(_ url: URL) async throws(PageLoadError) -> LoadedPage {
        requested.append(url)
        guard let page = pages[url] else { throw .httpStatus(404, url: url) }
        return page
    }
}
