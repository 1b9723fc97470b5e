// PageLoaderTests: loads from a loopback python server and from disk; redirects, limits, errors.

import Foundation
import Navigation
import TestSupport
import Testing
import TextPages

@Suite("Page loader")
struct PageLoaderTests {
    @Test func loadsTitleCanonicalOpenGraphAndLinks() async throws {
        try await withLoopbackServer { server in
            let page = try await PageLoader().load(server.url("/page/a"))
            #expect(page.finalURL == server.url("/page/a"))
            #expect(page.redirects.isEmpty)
            #expect(page.statusCode == 200)
            #expect(page.metadata.title == "Page & A")
            #expect(page.metadata.canonicalURL == server.url("/canonical/a"))
            #expect(page.metadata.openGraphTitle == #"OG "A""#)
            #expect(page.metadata.openGraphDescription == "About A")
            #expect(page.metadata.openGraphSiteName == "Loopback")
            #expect(
                page.metadata.links == [
                    PageLink(url: server.url("/page/b"), text: "Page B"),
                    PageLink(url: server.url("/page/c"), text: "Page C"),
                    PageLink(url: URL(string: "mailto:someone@example.org")!, text: "Mail"),
                    PageLink(
                        url: URL(string: "http://localhost:\(server.port)/elsewhere")!, text: "Elsewhere"),
                    PageLink(url: server.url("/page/d?x=1&y=2#frag"), text: "D"),
                ])
            #expect(page.security == .notSecure)
        }
    }

    @Test func followsAndRecordsARedirectChain() async throws {
        try await withLoopbackServer { server in
            let page = try await PageLoader().load(server.url("/chain"))
            #expect(page.finalURL == server.url("/page/final"))
            #expect(
                page.redirects == [
                    Redirect(from: server.url("/chain"), to: server.url("/chain/2"), statusCode: 301),
                    Redirect(from: server.url("/chain/2"), to: server.url("/chain/3"), statusCode: 302),
                    Redirect(from: server.url("/chain/3"), to: server.url("/page/final"), statusCode: 307),
                ])
            #expect(
                page.chain == [
                    server.url("/chain"), server.url("/chain/2"), server.url("/chain/3"),
                    server.url("/page/final"),
                ])
            #expect(page.metadata.title == "Page FINAL")
        }
    }

    @Test func httpErrorStatusIsTypedWithTheFinalURL() async throws {
        try await withLoopbackServer { server in
            await #expect(throws: PageLoadError.httpStatus(404, url: server.url("/missing"))) {
                try await PageLoader().load(server.url("/redirect-missing"))
            }
            await #expect(throws: PageLoadError.httpStatus(500, url: server.url("/error"))) {
                try await PageLoader().load(server.url("/error"))
            }
        }
    }

    @Test func slowPageTimesOut() async throws {
        try await withLoopbackServer { server in
            let loader = PageLoader(options: PageLoader.Options(timeout: 1))
            await #expect(throws: PageLoadError.timedOut(seconds: 1)) {
                try await loader.load(server.url("/slow"))
            }
        }
    }

    @Test(arguments: ["/huge", "/huge-chunked"])
    func hugePageStopsAtTheSizeLimit(path: String) async throws {
        try await withLoopbackServer { server in
            let loader = PageLoader(options: PageLoader.Options(maximumBytes: 1024 * 1024))
            await #expect(throws: PageLoadError.tooLarge(limit: 1024 * 1024)) {
                try await loader.load(server.url(path))
            }
        }
    }

    @Test func redirectLoopStopsAtTheLimit() async throws {
        try await withLoopbackServer { server in
            let loader = PageLoader(options: PageLoader.Options(maximumRedirects: 3))
            await #expect(throws: PageLoadError.tooManyRedirects(limit: 3)) {
                try await loader.load(server.url("/loop"))
            }
        }
    }

    @Test func redirectToAnotherSchemeIsNotFollowed() async throws {
        try await withLoopbackServer { server in
            await #expect(
                throws: PageLoadError.redirectToUnsupportedScheme(URL(string: "ftp://127.0.0.1/file")!)
            ) {
                try await PageLoader().load(server.url("/to-ftp"))
            }
        }
    }

    @Test func contentThatIsNotHTMLHasNoMetadata() async throws {
        try await withLoopbackServer { server in
            let page = try await PageLoader().load(server.url("/plain"))
            #expect(page.contentType == "text/plain")
            #expect(page.metadata == PageMetadata())
        }
    }

    @Test func refusedConnectionIsCannotConnect() async throws {
        // Start a server to learn a free port, then stop it so nothing listens there.
        let server = try LoopbackServer.start()  // its own: its port must be free afterwards
        let url = server.url("/page/a")
        server.stop()
        await #expect {
            try await PageLoader(options: PageLoader.Options(timeout: 5)).load(url)
        } throws: { error in
            if case PageLoadError.cannotConnect(let host, _) = error { return host == "127.0.0.1" }
            return false
        }
    }

    @Test func tlsHandshakeWithAPlainHTTPServerIsATLSFailure() async throws {
        try await withLoopbackServer { server in
            let url = URL(string: "https://127.0.0.1:\(server.port)/page/a")!
            await #expect {
                try await PageLoader(options: PageLoader.Options(timeout: 5)).load(url)
            } throws: { error in
                if case PageLoadError.tlsFailure(let host, _) = error { return host == "127.0.0.1" }
                return false
            }
        }
    }

    @Test func unknownHostIsHostNotFound() async throws {
        // `.invalid` never resolves (RFC 2606); no network is needed to fail.
        await #expect {
            try await PageLoader(options: PageLoader.Options(timeout: 10)).load(
                URL(string: "http://no-such-host.invalid/")!)
        } throws: { error in
            if case PageLoadError.hostNotFound(let host) = error { return host == "no-such-host.invalid" }
            return false
        }
    }

    @Test func unsupportedSchemeIsRefused() async {
        await #expect(throws: PageLoadError.unsupportedScheme("ftp")) {
            try await PageLoader().load(URL(string: "ftp://example.com/")!)
        }
    }

    @Test func fileURLsLoadFromDisk() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = URL(fileURLWithPath: temporary.path, isDirectory: true)
        let file = directory.appendingPathComponent("page.html")
        try "<title>Local</title><a href=other.html>Other</a>".write(
            to: file, atomically: true, encoding: .utf8)
        let page = try await PageLoader().load(file)
        #expect(page.metadata.title == "Local")
        #expect(page.metadata.links.first?.url == directory.appendingPathComponent("other.html"))
        #expect(page.security == .local)
        #expect(page.statusCode == nil)

        await #expect(
            throws: PageLoadError.fileNotFound(path: directory.appendingPathComponent("nope.html").path)
        ) {
            try await PageLoader().load(directory.appendingPathComponent("nope.html"))
        }
        await #expect {
            try await PageLoader().load(directory)
        } throws: { error in
            if case PageLoadError.fileUnreadable = error { return true }
            return false
        }
        try Data(count: 2048).write(to: file)
        await #expect(throws: PageLoadError.tooLarge(limit: 1024)) {
            try await PageLoader(options: PageLoader.Options(maximumBytes: 1024)).load(file)
        }
    }

    @Test func cancellingTheTaskCancelsTheLoad() async throws {
        try await withLoopbackServer { server in
            let url = server.url("/slow")
            let task = Task { try await PageLoader(options: PageLoader.Options(timeout: 30)).load(url) }
            task.cancel()
            await #expect(throws: PageLoadError.cancelled) { try await task.value }
        }
    }
}
