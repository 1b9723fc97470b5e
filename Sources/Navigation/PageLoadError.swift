// PageLoadError: why a page could not be loaded, one case per kind of failure.

import Foundation

/// Why a page could not be loaded. Each case names what failed so a person can act on it.
public enum PageLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL's scheme is not one the loader reads (the terminal's: `http`, `https`).
    case unsupportedScheme(String)
    /// The host name did not resolve (DNS).
    case hostNotFound(host: String)
    /// No connection could be made to the host (refused, unreachable, dropped).
    case cannotConnect(host: String, detail: String)
    /// The TLS handshake or the server's certificate failed.
    case tlsFailure(host: String, detail: String)
    /// The server answered with an error status (4xx, 5xx) at `url`, after redirects.
    case httpStatus(Int, url: URL)
    /// The load took longer than the configured timeout.
    case timedOut(seconds: Double)
    /// The page is larger than the configured limit; reading stopped there.
    case tooLarge(limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect pointed to a scheme other than http(s), which is not followed.
    case redirectToUnsupportedScheme(URL)
    /// The local file does not exist.
    case fileNotFound(path: String)
    /// The local file could not be read (permissions, a directory, …).
    case fileUnreadable(path: String, detail: String)
    /// Any other network failure, as the transport described it.
    case network(detail: String)
    /// Reading the page took more work or processor time than its budget allows.
    case tooComplex(detail: String)
    /// The load was cancelled (the task was cancelled or a newer navigation replaced it).
    case cancelled

    /// One sentence saying what failed.
    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme):
            "the scheme '\(scheme)' cannot be loaded: only http and https can"
        case .hostNotFound(let host): "the host '\(host)' was not found (DNS lookup failed)"
        case .cannotConnect(let host, let detail): "could not connect to '\(host)': \(detail)"
        case .tlsFailure(let host, let detail): "the secure connection to '\(host)' failed: \(detail)"
        case .httpStatus(let code, let url):
            "the server answered \(code) \(HTTPReasonPhrase.phrase(for: code)) for \(url.absoluteString)"
        case .timedOut(let seconds): "the page did not load within \(seconds) seconds"
        case .tooLarge(let limit): "the page is larger than the limit of \(limit) bytes"
        case .tooManyRedirects(let limit): "the page redirected more than \(limit) times"
        case .redirectToUnsupportedScheme(let url):
            "the page redirected to \(url.absoluteString), which is not http or https"
        case .fileNotFound(let path): "the file '\(path)' does not exist"
        case .fileUnreadable(let path, let detail): "the file '\(path)' cannot be read: \(detail)"
        case .network(let detail): "the page could not be loaded: \(detail)"
        case .tooComplex(let detail): "the page is too complex to read: \(detail)"
        case .cancelled: "the load was cancelled"
        }
    }
}
