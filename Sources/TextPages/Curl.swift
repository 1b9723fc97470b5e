// Curl: the one seam to libcurl (through CCurl's shim) that the terminal's page loader transfers with.

import CCurl

/// The few calls of libcurl's easy interface the page loader makes; each names the C function
/// it wraps, and nothing else in the package calls libcurl.
///
/// Why libcurl and not `URLSession`: on Linux `URLSession` hands every received chunk to the
/// delegate queue asynchronously, with no back-pressure, so a gzip bomb or an endless body filled
/// hundreds of megabytes before the delegate could count them and stop the transfer. libcurl's
/// write callback runs as the bytes arrive (after decompression) and stops the transfer when it
/// returns short, so the cap holds exactly.
///
/// Why a C module: `curl_easy_setopt` and `curl_easy_getinfo` are variadic in C, which Swift
/// cannot call; CCurl's `shim.h` wraps each use in a fixed-argument `static inline` function, and
/// the option, info and error constants come from `<curl/curl.h>` itself rather than copied
/// numbers. `share` links `libcurl.so.4` (the library FoundationNetworking is built on); building
/// needs its headers (`libcurl4-openssl-dev`, installed by `scripts/install-deps.sh`).
enum Curl {
    /// An easy handle (`CURL *`).
    typealias Handle = UnsafeMutableRawPointer
    /// A list of header lines (`struct curl_slist *`).
    typealias List = UnsafeMutablePointer<curl_slist>
    /// `curl_write_callback`: takes the bytes received; returning less than offered stops the transfer.
    typealias WriteCallback = curl_write_callback
    /// `curl_xferinfo_callback`: called as the transfer progresses; non-zero aborts it.
    typealias ProgressCallback = curl_xferinfo_callback

    /// The size libcurl's error buffer must have (`CURL_ERROR_SIZE`).
    static let errorBufferSize = Int(CURL_ERROR_SIZE)

    /// `curl_global_init(CURL_GLOBAL_ALL)`, once; the library counts the calls and
    /// FoundationNetworking makes its own. Fails only when libcurl cannot set up TLS.
    static let ready: Result<Void, CurlUnavailable> =
        ab_curl_global_init_all() == CURLE_OK
        ? .success(()) : .failure(CurlUnavailable(detail: "curl_global_init failed"))

    /// `curl_easy_init`.
    static func makeHandle() -> Handle? { curl_easy_init() }
    /// `curl_easy_cleanup`.
    static func free(_ handle: Handle) { curl_easy_cleanup(handle) }
    /// `curl_easy_setopt` with a `long`.
    @discardableResult
    static func set(_ handle: Handle, _ option: Option, _ value: Int) -> Int32 {
        code(ab_curl_setopt_long(handle, option.value, value))
    }
    /// `curl_easy_setopt` with a string, which libcurl copies.
    @discardableResult
    static func set(_ handle: Handle, _ option: Option, string: String) -> Int32 {
        string.withCString {
            code(ab_curl_setopt_pointer(handle, option.value, UnsafeMutableRawPointer(mutating: $0)))
        }
    }
    /// `curl_easy_setopt` with a pointer (a list, a buffer, a callback's data).
    @discardableResult
    static func set(_ handle: Handle, _ option: Option, pointer: UnsafeMutableRawPointer?) -> Int32 {
        code(ab_curl_setopt_pointer(handle, option.value, pointer))
    }
    /// `curl_easy_setopt(CURLOPT_WRITEFUNCTION)`.
    @discardableResult
    static func setWriteFunction(_ handle: Handle, _ callback: WriteCallback) -> Int32 {
        code(ab_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, callback))
    }
    /// `curl_easy_setopt(CURLOPT_XFERINFOFUNCTION)`.
    @discardableResult
    static func setProgressFunction(_ handle: Handle, _ callback: ProgressCallback) -> Int32 {
        code(ab_curl_setopt_xferinfo_callback(handle, callback))
    }
    /// `curl_easy_setopt(CURLOPT_PROTOCOLS_STR, "http,https")`, or `CURLOPT_PROTOCOLS` on a
    /// libcurl older than 7.85.
    @discardableResult
    static func restrictToHTTP(_ handle: Handle) -> Int32 { code(ab_curl_restrict_to_http(handle)) }
    /// `curl_easy_perform`: blocks until the transfer ends; returns the `CURLcode`.
    static func run(_ handle: Handle) -> Int32 { code(curl_easy_perform(handle)) }
    /// `curl_easy_getinfo` for a `long`.
    static func long(_ handle: Handle, _ info: Info) -> Int {
        var value = 0
        _ = ab_curl_getinfo_long(handle, info.value, &value)
        return value
    }
    /// `curl_easy_getinfo` for a string; `nil` when libcurl has none.
    static func string(_ handle: Handle, _ info: Info) -> String? {
        var value: UnsafePointer<CChar>?
        _ = ab_curl_getinfo_string(handle, info.value, &value)
        return value.map { String(cString: $0) }
    }
    /// `curl_easy_strerror`.
    static func describe(_ code: Int32) -> String {
        curl_easy_strerror(CURLcode(UInt32(bitPattern: code))).map { String(cString: $0) } ?? "error \(code)"
    }
    /// `curl_slist_append`.
    static func append(_ list: List?, _ line: String) -> List? {
        line.withCString { curl_slist_append(list, $0) }
    }
    /// `curl_slist_free_all`.
    static func freeList(_ list: List?) { curl_slist_free_all(list) }

    /// A `CURLcode` as the number libcurl documents (and the loader's messages show).
    private static func code(_ code: CURLcode) -> Int32 { Int32(bitPattern: code.rawValue) }

    /// The `CURLOPT_*` options the loader sets, by what they do.
    enum Option {
        case url, userAgent, httpHeader, errorBuffer, acceptEncoding, writeData, progressData
        case noProgress, followLocation, noSignal, timeoutMilliseconds, connectTimeoutMilliseconds

        var value: CURLoption {
            switch self {
            case .url: CURLOPT_URL
            case .userAgent: CURLOPT_USERAGENT
            case .httpHeader: CURLOPT_HTTPHEADER
            case .errorBuffer: CURLOPT_ERRORBUFFER
            case .acceptEncoding: CURLOPT_ACCEPT_ENCODING
            case .writeData: CURLOPT_WRITEDATA
            case .progressData: CURLOPT_XFERINFODATA
            case .noProgress: CURLOPT_NOPROGRESS
            case .followLocation: CURLOPT_FOLLOWLOCATION
            case .noSignal: CURLOPT_NOSIGNAL
            case .timeoutMilliseconds: CURLOPT_TIMEOUT_MS
            case .connectTimeoutMilliseconds: CURLOPT_CONNECTTIMEOUT_MS
            }
        }
    }

    /// The `CURLINFO_*` answers the loader reads.
    enum Info {
        case responseCode, contentType, redirectURL

        var value: CURLINFO {
            switch self {
            case .responseCode: CURLINFO_RESPONSE_CODE
            case .contentType: CURLINFO_CONTENT_TYPE
            case .redirectURL: CURLINFO_REDIRECT_URL
            }
        }
    }

    /// `CURLcode`s the loader tells apart.
    enum Code {
        static let ok = number(CURLE_OK)
        static let couldNotResolveHost = number(CURLE_COULDNT_RESOLVE_HOST)
        static let couldNotConnect = number(CURLE_COULDNT_CONNECT)
        static let timedOut = number(CURLE_OPERATION_TIMEDOUT)
        /// TLS: connect, engine, certificate, cipher, verification, CA file, shutdown, CRL,
        /// issuer, pinned key, certificate status, client certificate.
        static let tls: Set<Int32> = Set(
            [
                CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
                CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED,
                CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE,
                CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
                CURLE_SSL_CLIENTCERT, CURLE_PEER_FAILED_VERIFICATION,
            ].map(number))

        private static func number(_ code: CURLcode) -> Int32 { Int32(bitPattern: code.rawValue) }
    }
}

/// libcurl could not be set up.
struct CurlUnavailable: Error, CustomStringConvertible {
    var detail: String
    var description: String { "libcurl is not available: \(detail)" }
}
