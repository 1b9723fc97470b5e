// PageLoaderTests: loads from a loopback python server and from disk; redirects, limits, errors.

import Foundation
import Glibc
import Navigation
import TestSupport
import Testing
@testable import TextPages

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

    @Test func onRedirectSeesEachRedirectWithThePageBeforeFollowingIt() async throws {
        try await withLoopbackServer { server in
            let seen = Locked<[Redirect]>([])
            let pages = Locked<Set<URL>>([])
            let loader = PageLoader { redirect, page in
                seen.withLock { $0.append(redirect) }
                pages.withLock { _ = $0.insert(page) }
            }
            let page = try await loader.load(server.url("/chain"))
            #expect(seen.value == page.redirects && seen.value.count == 3)
            #expect(pages.value == [server.url("/chain")], "the URL the load began at")
            // Told before the target loads: also when it then fails.
            await #expect(throws: PageLoadError.httpStatus(404, url: server.url("/missing"))) {
                try await loader.load(server.url("/redirect-missing"))
            }
            #expect(seen.value.last?.from == server.url("/redirect-missing"))
            #expect(seen.value.last?.to == server.url("/missing"))
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
            let loader = PageLoader(options: PageLoader.Options(timeout: 60, maximumRedirects: 3))
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
        // A port held by a bound socket that does not listen: connecting is refused, and no
        // server started by another test can take the port meanwhile.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0
            }
        }
        #expect(bound)
        let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/page/a")!
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

    /// `share browse` shows web pages only (issue 13): `file:` is refused like any other scheme.
    @Test func fileURLsAreNotLoaded() async {
        await #expect(throws: PageLoadError.unsupportedScheme("file")) {
            try await PageLoader().load(URL(fileURLWithPath: "/etc/passwd"))
        }
    }

    /// Regression (issue 13): a loop said "redirected more than 0 times" (URLSession's own
    /// limit, reported as 0, came before ours). The load may take up to a minute: this is about
    /// the redirect limit, not time. Alone, the 21 loopback requests take a fraction of a
    /// second; in the whole suite on 2 cores, each of the loader's 21 awaits waits for one of
    /// Swift concurrency's two threads while synchronous tests hold both (measured: 32 s of
    /// such waits for 0.6 s of HTTP).
    @Test func aRedirectLoopNamesTheLimit() async throws {
        try await withLoopbackServer { server in
            await #expect(throws: PageLoadError.tooManyRedirects(limit: 20)) {
                try await PageLoader(options: PageLoader.Options(timeout: 60)).load(server.url("/loop"))
            }
            #expect(
                PageLoadError.tooManyRedirects(limit: 20).description
                    == "the page redirected more than 20 times")
        }
    }

    /// Regression (issue 13): `HTTP://` failed to load.
    @Test func anUppercaseSchemeLoads() async throws {
        try await withLoopbackServer { server in
            let page = try await PageLoader().load(URL(string: "HTTP://127.0.0.1:\(server.port)/page/b")!)
            #expect(page.metadata.title == "Page B")
            #expect(page.finalURL.scheme == "http")
        }
    }

    /// Regression (issue 13): the charset was ignored; Latin-1 pages came out garbled.
    @Test(arguments: [
        ("/latin1", "Café crème"), ("/meta-1252", "€ 5 “quoted”"), ("/meta-sjis", "日本語のページ"),
        ("/utf8-header-wins", "Ünïcode"),
    ])
    func theCharsetComesFromTheHeaderOrTheMeta(path: String, title: String) async throws {
        try await withLoopbackServer { server in
            let page = try await PageLoader().load(server.url(path))
            #expect(page.metadata.title == title)
        }
    }

    /// Regression (issue 11, item 16): a gzip bomb grew the process by hundreds of MiB before
    /// the 5 MiB limit was enforced. The cap now holds as the decompressed bytes arrive.
    ///
    /// The peak is the whole test process's, and tests running beside this one (the held-call
    /// tests build 17 MB messages) can raise it during a load: so the peak is reset before each
    /// load, and a growth is believed only if it shows in three loads running. The bug grew the
    /// peak by over 600 MiB every time; a neighbour's allocation does not line up three times.
    @Test func aGzipBombStopsAtTheCap() async throws {
        try await withLoopbackServer { server in
            var growths: [Int] = []
            for _ in 0..<3 {
                resetPeakResident()
                let before = peakResidentKiB()
                await #expect(throws: PageLoadError.tooLarge(limit: 5 * 1024 * 1024)) {
                    try await PageLoader().load(server.url("/gzip-bomb"))
                }
                let grown = peakResidentKiB() - before
                #expect(before > 0)
                growths.append(grown)
                if grown < 128 * 1024 { break }
            }
            // 4 GiB decompressed.
            #expect(growths.contains { $0 < 128 * 1024 }, "the peak resident size grew by \(growths) KiB")
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

/// The process's peak resident set (`VmHWM` of /proc/self/status) in KiB, or -1.
/// Sets this process's peak resident size (VmHWM) back to its resident size now
/// (`/proc/self/clear_refs`, value 5).
func resetPeakResident() {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, "5", 1)
    close(descriptor)
}

func peakResidentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}
