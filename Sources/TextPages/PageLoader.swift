// PageLoader: loads a page over HTTP(S) with URLSession, or from disk, and reads its metadata.

import Foundation
import Navigation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads pages for the terminal's navigation session: `http`/`https` with `URLSession`
/// (redirects followed and recorded, a size limit, a timeout) and `file` from disk.
///
/// Each load uses its own ephemeral `URLSession` (no cookies, no cache kept between loads),
/// invalidated when the load ends. HTML bodies (`text/html`, `application/xhtml+xml`, or
/// no `Content-Type`) are read with `PageExtractor`; others yield empty metadata.
public struct PageLoader: PageLoading {
    /// Limits of a load.
    public struct Options: Sendable {
        /// Longest a whole load may take, redirects included, in seconds.
        public var timeout: TimeInterval
        /// Largest body read, in bytes; past it the load stops with `tooLarge`.
        public var maximumBytes: Int
        /// Most redirects followed.
        public var maximumRedirects: Int
        /// The `User-Agent` header.
        public var userAgent: String

        /// Creates options; the defaults are 20 s, 5 MiB, 20 redirects.
        public init(
            timeout: TimeInterval = 20, maximumBytes: Int = 5 * 1024 * 1024, maximumRedirects: Int = 20,
            userAgent: String = "ActivityBroker-NavigationSession/1.0"
        ) {
            self.timeout = timeout
            self.maximumBytes = maximumBytes
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
        }
    }

    /// The limits used.
    public var options: Options

    /// Creates a loader with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Loads `url` and reads its metadata.
    ///
    /// - Throws: `PageLoadError`; an HTTP status of 400 or more is `httpStatus`. Cancelling
    ///   the calling task cancels the transfer and throws `cancelled`.
    public func load(_ url: URL) async throws(PageLoadError) -> LoadedPage {
        switch url.scheme?.lowercased() {
        case "http", "https": return try await loadHTTP(url)
        case "file": return try loadFile(url)
        default: throw .unsupportedScheme(url.scheme ?? "")
        }
    }

    // MARK: - file:

    private func loadFile(_ url: URL) throws(PageLoadError) -> LoadedPage {
        let path = url.path
        let handle: FileHandle
        do {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PageLoadError.fileNotFound(path: path)
            }
            guard !isDirectory.boolValue else {
                throw PageLoadError.fileUnreadable(path: path, detail: "it is a directory")
            }
            handle = try FileHandle(forReadingFrom: url)
        } catch let error as PageLoadError {
            throw error
        } catch {
            throw .fileUnreadable(path: path, detail: String(describing: error))
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // One byte past the limit tells a file of exactly the limit from a larger one.
            data = try handle.read(upToCount: options.maximumBytes + 1) ?? Data()
        } catch {
            throw .fileUnreadable(path: path, detail: String(describing: error))
        }
        guard data.count <= options.maximumBytes else { throw .tooLarge(limit: options.maximumBytes) }
        let metadata = PageExtractor.extract(html: [UInt8](data), url: url)
        return LoadedPage(requestedURL: url, finalURL: url, byteCount: data.count, metadata: metadata)
    }

    // MARK: - http(s):

    private func loadHTTP(_ url: URL) async throws(PageLoadError) -> LoadedPage {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.timeout
        configuration.timeoutIntervalForResource = options.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: options.timeout)
        request.setValue(options.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("text/html,application/xhtml+xml;q=0.9,*/*;q=0.5", forHTTPHeaderField: "Accept")
        let recorder = LoadRecorder(options: options, requestedURL: url)
        let session = URLSession(configuration: configuration, delegate: recorder, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                recorder.start(task, continuation: continuation)
            }
        } onCancel: {
            recorder.fail(.cancelled)
        }
        let finished = try outcome.get()
        let finalURL = finished.response.url ?? finished.redirects.last?.to ?? url
        let status = finished.response.statusCode
        guard status < 400 else { throw .httpStatus(status, url: finalURL) }
        // A 3xx here had no usable Location (refused redirects end as failures above): its
        // body is the page, as browsers show it.
        let contentType = finished.response.value(forHTTPHeaderField: "Content-Type")
        let isHTML =
            contentType.map { type in
                let lower = type.lowercased()
                return lower.hasPrefix("text/html") || lower.hasPrefix("application/xhtml+xml")
            } ?? true
        let metadata =
            isHTML ? PageExtractor.extract(html: [UInt8](finished.body), url: finalURL) : PageMetadata()
        return LoadedPage(
            requestedURL: url, finalURL: finalURL, redirects: finished.redirects, statusCode: status,
            contentType: contentType, byteCount: finished.body.count, metadata: metadata)
    }
}

/// What a finished HTTP transfer delivered.
struct FinishedTransfer: Sendable {
    var response: HTTPURLResponse
    var body: Data
    var redirects: [Redirect]
}

/// The delegate of one load: records redirects, enforces the size limit and the deadline,
/// and resumes the waiting task exactly once.
///
/// `@unchecked Sendable`: URLSession calls it on its delegate queue while the deadline
/// timer and task cancellation call `fail` from other threads; every stored property is
/// read and written only with `lock` held (the continuation is taken out under the lock,
/// so it is resumed at most once).
final class LoadRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let options: PageLoader.Options
    private let requestedURL: URL
    private var redirects: [Redirect] = []
    private var body = Data()
    private var response: HTTPURLResponse?
    private var failure: PageLoadError?
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<Result<FinishedTransfer, PageLoadError>, Never>?
    private var deadline: DispatchWorkItem?
    /// True while a redirect's completion handler is pending: cancelling the task then would
    /// make FoundationNetworking trap when the handler is called, so `fail` leaves the
    /// cancel to the redirect callback (`cancelAfterRedirect`).
    private var inRedirect = false
    private var cancelAfterRedirect = false

    init(options: PageLoader.Options, requestedURL: URL) {
        self.options = options
        self.requestedURL = requestedURL
    }

    /// Starts `task` and arms the deadline; `continuation` is resumed when the load ends.
    func start(
        _ task: URLSessionTask,
        continuation: CheckedContinuation<Result<FinishedTransfer, PageLoadError>, Never>
    ) {
        let deadline = DispatchWorkItem { [weak self] in
            guard let self else { return }
            self.fail(.timedOut(seconds: self.options.timeout))
        }
        lock.withLock {
            self.task = task
            self.continuation = continuation
            self.deadline = deadline
        }
        // Our own deadline as well as URLSession's: its timeouts are per-request on Linux,
        // and a server trickling bytes would never trip them.
        DispatchQueue.global().asyncAfter(deadline: .now() + options.timeout, execute: deadline)
        if let failure = lock.withLock({ self.failure }) {  // cancelled before it started
            finish(.failure(failure))
            return
        }
        task.resume()
    }

    /// Ends the load with `error` (unless it already ended) and cancels the transfer.
    func fail(_ error: PageLoadError) {
        let task = lock.withLock { () -> URLSessionTask? in
            if failure == nil { failure = error }
            if inRedirect {
                cancelAfterRedirect = true
                return nil
            }
            return self.task
        }
        task?.cancel()
        finish(.failure(error))
    }

    /// Records `error` as the outcome (unless one is recorded) without touching the task;
    /// `didCompleteWithError` then ends the load with it.
    private func record(_ error: PageLoadError) {
        lock.withLock {
            if failure == nil { failure = error }
        }
    }

    private func finish(_ result: Result<FinishedTransfer, PageLoadError>) {
        let (continuation, deadline) = lock.withLock {
            defer {
                self.continuation = nil
                self.deadline = nil
            }
            return (self.continuation, self.deadline)
        }
        deadline?.cancel()
        continuation?.resume(returning: result)
    }

    // MARK: URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        lock.withLock { inRedirect = true }
        decideRedirect(response: response, request: request, completionHandler: completionHandler)
        let cancel = lock.withLock {
            inRedirect = false
            return cancelAfterRedirect
        }
        if cancel { task.cancel() }
    }

    /// Follows the redirect or refuses it, calling `completionHandler` exactly once.
    private func decideRedirect(
        response: HTTPURLResponse, request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let target = request.url else {
            completionHandler(nil)
            return
        }
        let from = response.url ?? lock.withLock { redirects.last?.to } ?? requestedURL
        let scheme = target.scheme?.lowercased()
        // Refusing a redirect: record why, then let the task complete with the 3xx response
        // (cancelling here instead would make FoundationNetworking trap on the pending handler).
        guard scheme == "http" || scheme == "https" else {
            record(.redirectToUnsupportedScheme(target))
            completionHandler(nil)
            return
        }
        let count = lock.withLock {
            redirects.append(Redirect(from: from, to: target, statusCode: response.statusCode))
            return redirects.count
        }
        guard count <= options.maximumRedirects else {
            record(.tooManyRedirects(limit: options.maximumRedirects))
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (failure, response, body, redirects) = lock.withLock {
            (self.failure, self.response, self.body, self.redirects)
        }
        if let failure {
            finish(.failure(failure))
        } else if let error {
            finish(
                .failure(
                    Self.classify(
                        error, url: task.currentRequest?.url ?? requestedURL, timeout: options.timeout)))
        } else if let response {
            finish(.success(FinishedTransfer(response: response, body: body, redirects: redirects)))
        } else {
            finish(.failure(.network(detail: "the server sent no response")))
        }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            record(.network(detail: "the response is not HTTP"))
            completionHandler(.cancel)
            return
        }
        lock.withLock { self.response = http }
        if http.expectedContentLength > Int64(options.maximumBytes) {
            record(.tooLarge(limit: options.maximumBytes))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let size = lock.withLock {
            // Keep at most the limit; the rest is never stored.
            body.append(data.prefix(max(0, options.maximumBytes + 1 - body.count)))
            return body.count
        }
        if size > options.maximumBytes { fail(.tooLarge(limit: options.maximumBytes)) }
    }

    /// Maps a transport error to the failure a person understands.
    static func classify(_ error: any Error, url: URL, timeout: TimeInterval) -> PageLoadError {
        let host = url.host ?? url.absoluteString
        guard let urlError = error as? URLError else { return .network(detail: String(describing: error)) }
        let detail = urlError.localizedDescription
        switch urlError.code {
        case .cannotFindHost, .dnsLookupFailed: return .hostNotFound(host: host)
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet:
            return .cannotConnect(host: host, detail: detail)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return .tlsFailure(host: host, detail: detail)
        case .timedOut: return .timedOut(seconds: timeout)
        case .httpTooManyRedirects: return .tooManyRedirects(limit: 0)
        case .cancelled: return .cancelled
        default:
            // FoundationNetworking reports most libcurl TLS failures (handshake, certificate)
            // with a generic code and OpenSSL's text: recognise them on an https URL.
            let lower = detail.lowercased()
            if url.scheme?.lowercased() == "https",
                ["ssl", "tls", "certificate", "handshake"].contains(where: lower.contains)
            {
                return .tlsFailure(host: host, detail: detail)
            }
            return .network(detail: "\(detail) (URLError \(urlError.code.rawValue))")
        }
    }
}
