// HTTPTransfer: one HTTP(S) GET through libcurl, with a byte cap enforced as the bytes arrive.

import Foundation
import Navigation

/// One GET, redirects not followed (the loader follows and records them): the status, the
/// `Content-Type`, the redirect target and at most `maximumBytes` of the decoded body.
///
/// The body is counted in libcurl's write callback, after decompression, and the transfer
/// stops the moment it would pass the cap: a gzip bomb or an endless body costs at most the
/// cap plus one chunk (16 KiB). Cancelling the calling task stops the transfer within
/// libcurl's next progress callback.
///
/// `@unchecked Sendable`: `body`, `overLimit` and the error buffer are touched only by the
/// thread that runs `curl_easy_perform` (the callbacks run on it); `cancelled` is read and
/// written with `lock` held.
final class HTTPTransfer: @unchecked Sendable {
    struct Response: Sendable {
        var status: Int
        var contentType: String?
        var location: URL?
        var body: [UInt8]
    }

    private let lock = NSLock()
    private var cancelled = false
    private let maximumBytes: Int
    private var body: [UInt8] = []
    private var overLimit = false

    private init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Gets `url`. `timeout` bounds this one transfer; `reportedTimeout` is the load's limit,
    /// named in `timedOut`.
    static func get(
        _ url: URL, userAgent: String, maximumBytes: Int, timeout: TimeInterval, reportedTimeout: TimeInterval
    ) async throws(PageLoadError) -> Response {
        let transfer = HTTPTransfer(maximumBytes: maximumBytes)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // curl_easy_perform blocks: a thread of its own keeps Swift concurrency's few
                // threads free.
                Thread {
                    continuation.resume(
                        returning: transfer.perform(
                            url, userAgent: userAgent, timeout: timeout, reportedTimeout: reportedTimeout))
                }.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }

    private func cancel() {
        lock.withLock { cancelled = true }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    /// Takes `count` bytes from libcurl; returning less than `count` stops the transfer.
    fileprivate func receive(_ data: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard let data, count > 0 else { return count }
        guard body.count + count <= maximumBytes else {
            overLimit = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) {
            body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
        }
        return count
    }

    private func perform(_ url: URL, userAgent: String, timeout: TimeInterval, reportedTimeout: TimeInterval)
        -> Result<Response, PageLoadError>
    {
        if case .failure(let error) = Curl.ready { return .failure(.network(detail: "\(error)")) }
        guard let handle = Curl.makeHandle() else {
            return .failure(.network(detail: "curl_easy_init failed"))
        }
        defer { Curl.free(handle) }
        let headers = Curl.append(nil, "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
        defer { Curl.freeList(headers) }
        var errorBuffer = [CChar](repeating: 0, count: Curl.errorBufferSize)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let write: Curl.WriteCallback = { data, size, count, context in
            Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().receive(
                data, count: size * count)
        }
        let progress: Curl.ProgressCallback = { context, _, _, _, _ in
            Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }
        let code: Int32 = errorBuffer.withUnsafeMutableBufferPointer { errors in
            Curl.set(handle, .url, string: url.absoluteString)
            Curl.set(handle, .userAgent, string: userAgent)
            Curl.restrictToHTTP(handle)
            Curl.set(handle, .acceptEncoding, string: "")  // every encoding libcurl decodes
            Curl.set(handle, .httpHeader, pointer: UnsafeMutableRawPointer(headers))
            Curl.set(handle, .errorBuffer, pointer: UnsafeMutableRawPointer(errors.baseAddress))
            Curl.set(handle, .noSignal, 1)
            Curl.set(handle, .followLocation, 0)
            let milliseconds = max(1, Int(timeout * 1000))
            Curl.set(handle, .timeoutMilliseconds, milliseconds)
            Curl.set(handle, .connectTimeoutMilliseconds, milliseconds)
            Curl.setWriteFunction(handle, write)
            Curl.set(handle, .writeData, pointer: context)
            Curl.set(handle, .noProgress, 0)
            Curl.setProgressFunction(handle, progress)
            Curl.set(handle, .progressData, pointer: context)
            return Curl.run(handle)
        }
        if overLimit { return .failure(.tooLarge(limit: maximumBytes)) }
        if isCancelled { return .failure(.cancelled) }
        guard code == Curl.Code.ok else {
            let message = String(
                decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = message.isEmpty ? Curl.describe(code) : message
            return .failure(Self.classify(code, detail: detail, url: url, timeout: reportedTimeout))
        }
        let status = Curl.long(handle, .responseCode)
        let location = Curl.string(handle, .redirectURL).flatMap { URL(string: $0) }
        return .success(
            Response(
                status: status, contentType: Curl.string(handle, .contentType), location: location, body: body
            ))
    }

    /// Maps a libcurl failure to the failure a person understands.
    static func classify(_ code: Int32, detail: String, url: URL, timeout: TimeInterval) -> PageLoadError {
        let host = url.host ?? url.absoluteString
        switch code {
        case Curl.Code.couldNotResolveHost: return .hostNotFound(host: host)
        case Curl.Code.couldNotConnect: return .cannotConnect(host: host, detail: detail)
        case Curl.Code.timedOut: return .timedOut(seconds: timeout)
        case _ where Curl.Code.tls.contains(code): return .tlsFailure(host: host, detail: detail)
        default:
            let lower = detail.lowercased()
            if url.scheme?.lowercased() == "https",
                ["ssl", "tls", "certificate", "handshake"].contains(where: lower.contains)
            {
                return .tlsFailure(host: host, detail: detail)
            }
            return .network(detail: "\(detail) (curl error \(code))")
        }
    }
}
