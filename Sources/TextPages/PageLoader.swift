// PageLoader: loads a web page over http(s), following redirects within limits, and reads its metadata.

import Foundation
import Navigation

/// Loads pages for the terminal's navigation session: `http` and `https` only, through
/// libcurl (`HTTPTransfer`), redirects followed and recorded here.
///
/// Limits, all per page: the time of the whole load, redirects included (`timeout`); the
/// body's size after decompression, enforced as the bytes arrive (`maximumBytes`); the
/// redirects (`maximumRedirects`); and the work and processor time of reading the HTML
/// (`reading`). HTML bodies (`text/html`, `application/xhtml+xml`, or no `Content-Type`) are
/// converted from their charset (`PageCharset`) and read with `PageExtractor`; others
/// yield empty metadata.
public struct PageLoader: PageLoading {
    /// Limits of a load: each has its default here and may be changed alone
    /// (`var options = PageLoader.Options.defaults; options.timeout = 5`; inside the package,
    /// Swift's memberwise init takes any of them).
    public struct Options: Sendable {
        /// Longest a whole load may take, redirects included, in seconds.
        public var timeout: TimeInterval = 20
        /// Largest body read, in bytes after decompression; past it the load stops with `tooLarge`.
        public var maximumBytes = 5 * 1024 * 1024
        /// Most redirects followed.
        public var maximumRedirects = 20
        /// The `User-Agent` header.
        public var userAgent = "ActivityBroker-NavigationSession/1.0"
        /// The budget for reading the HTML.
        public var reading = ExtractionBudget()

        /// Every limit at its default.
        public static let defaults = Options()
    }

    /// The limits used.
    public var options: Options
    /// Called for each redirect before it is followed, with the URL the load began at, and
    /// awaited: the terminal's session tells the broker of Private Click Measurement triggers
    /// with it (`share browse`), whether or not the redirect's target then loads.
    public var onRedirect: (@Sendable (_ redirect: Redirect, _ page: URL) async -> Void)?

    /// Creates a loader with `options`.
    public init(
        options: Options = .defaults, onRedirect: (@Sendable (_ redirect: Redirect, _ page: URL) async -> Void)? = nil
    ) {
        self.options = options
        self.onRedirect = onRedirect
    }

    /// Loads `url` and reads its metadata.
    ///
    /// - Throws: `PageLoadError`; an HTTP status of 400 or more is `httpStatus`, a scheme
    ///   other than http(s) `unsupportedScheme`. Cancelling the calling task stops the
    ///   transfer or the reading and throws `cancelled`.
    public func load(_ url: URL) async throws(PageLoadError) -> LoadedPage {
        switch url.scheme?.lowercased() {
        case "http", "https": return try await loadHTTP(URLRouter.normalized(url))
        default: throw .unsupportedScheme(url.scheme ?? "")
        }
    }

    private func loadHTTP(_ url: URL) async throws(PageLoadError) -> LoadedPage {
        let deadline = Date().addingTimeInterval(options.timeout)
        var current = url
        var redirects: [Redirect] = []
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw .timedOut(seconds: options.timeout) }
            let response = try await HTTPTransfer.get(
                current, userAgent: options.userAgent, maximumBytes: options.maximumBytes, timeout: remaining,
                reportedTimeout: options.timeout)
            if (300..<400).contains(response.status), let target = response.location {
                let scheme = target.scheme?.lowercased()
                guard scheme == "http" || scheme == "https" else {
                    throw .redirectToUnsupportedScheme(target)
                }
                let redirect = Redirect(from: current, to: target, statusCode: response.status)
                redirects.append(redirect)
                guard redirects.count <= options.maximumRedirects else {
                    throw .tooManyRedirects(limit: options.maximumRedirects)
                }
                await onRedirect?(redirect, url)
                current = target
                continue
            }
            guard response.status < 400 else { throw .httpStatus(response.status, url: current) }
            // A 3xx here had no usable Location: its body is the page, as browsers show it.
            let isHTML =
                response.contentType.map { type in
                    let lower = type.lowercased()
                    return lower.hasPrefix("text/html") || lower.hasPrefix("application/xhtml+xml")
                } ?? true
            var metadata = PageMetadata()
            if isHTML {
                let html = PageCharset.utf8(response.body, contentType: response.contentType)
                metadata = try PageExtractor.read(html: html, url: current, budget: options.reading).metadata
            }
            return LoadedPage(
                requestedURL: url, finalURL: current, redirects: redirects, statusCode: response.status,
                contentType: response.contentType, byteCount: response.body.count, metadata: metadata)
        }
    }
}
