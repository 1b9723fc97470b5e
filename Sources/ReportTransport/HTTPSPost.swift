// HTTPSPost: one cookie-less, credential-less, Referer-less HTTPS POST through libcurl — the broker's only network call.
import CCurlLoader

/// Posts a small body to an https URL and reports whether the server answered.
///
/// Its own target so that the broker's one use of the network (Private Click Measurement
/// reports, API.md §11) sits behind one file: the broker may not import CCurl, and this
/// target knows nothing of the broker. Why libcurl rather than `URLSession`: on Linux
/// `URLSession` cannot be given a CA file, so a test server with its own CA could only be
/// reached by turning verification off; libcurl takes the CA file as an explicit option
/// (`trustedCAFile`) and verification stays on in every case. libcurl is loaded by the first
/// send (`CCurlLoader`), not linked: a broker that sends no report never maps it.
///
/// What the request carries: the body, `Content-Type: application/json`, libcurl's
/// User-Agent replaced by a fixed one, nothing else. libcurl's cookie engine is never
/// enabled (no `CURLOPT_COOKIEFILE`), no credentials or `.netrc` are used, no Referer is
/// set, and redirects are not followed. Blocking: call it off the broker's loop.
public enum HTTPSPost {
    /// The answer: the HTTP status, or why there was none.
    public enum Outcome: Sendable, Equatable {
        case answered(status: Int)
        case failed(String)
    }

    public static let userAgent = "activity-broker-pcm/1"

    /// Posts `body` to `url` (https only).
    /// - Parameters:
    ///   - trustedCAFile: a PEM file of CAs to trust instead of the system's (tests).
    ///   - connectTo: `CURLOPT_CONNECT_TO` entries (`HOST:PORT:CONNECT-HOST:CONNECT-PORT`), so a
    ///     test can serve `https://shop.example/` from a loopback port while the name, SNI and
    ///     certificate check stay those of the URL.
    public static func send(
        _ body: String, to url: String, trustedCAFile: String? = nil, connectTo: [String] = [],
        timeoutSeconds: Int = 30
    ) -> Outcome {
        guard url.hasPrefix("https://") else { return .failed("not an https URL") }
        guard ab_curl_load() == 1, let handle = ab_curl_easy_init() else {
            return .failed("libcurl is unavailable")
        }
        defer { ab_curl_easy_cleanup(handle) }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = ab_curl_slist_append(headers, "Content-Type: application/json")
        defer { ab_curl_slist_free_all(headers) }
        var connect: UnsafeMutablePointer<curl_slist>?
        for entry in connectTo { connect = ab_curl_slist_append(connect, entry) }
        defer { ab_curl_slist_free_all(connect) }

        let bytes = Array(body.utf8)
        let code: CURLcode = bytes.withUnsafeBufferPointer { buffer in
            func set(_ option: CURLoption, _ value: Int) { _ = ab_curl_easy_setopt_long(handle, option, value) }
            func set(_ option: CURLoption, string: String) {
                _ = string.withCString {
                    ab_curl_easy_setopt_pointer(handle, option, UnsafeMutableRawPointer(mutating: $0))
                }
            }
            set(CURLOPT_URL, string: url)
            _ = ab_curl_easy_restrict_to_http(handle)
            set(CURLOPT_POST, 1)
            _ = ab_curl_easy_setopt_pointer(
                handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            set(CURLOPT_POSTFIELDSIZE, bytes.count)
            _ = ab_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
            set(CURLOPT_USERAGENT, string: userAgent)
            set(CURLOPT_FOLLOWLOCATION, 0)
            set(CURLOPT_NETRC, Int(CURL_NETRC_IGNORED.rawValue))
            set(CURLOPT_SSL_VERIFYPEER, 1)
            set(CURLOPT_SSL_VERIFYHOST, 2)
            set(CURLOPT_NOSIGNAL, 1)
            set(CURLOPT_TIMEOUT_MS, timeoutSeconds * 1000)
            // The answer's body is of no interest: swallowed.
            _ = ab_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { _, size, count, _ in
                size * count
            }
            if let trustedCAFile { set(CURLOPT_CAINFO, string: trustedCAFile) }
            if connect != nil {
                _ = ab_curl_easy_setopt_pointer(handle, CURLOPT_CONNECT_TO, UnsafeMutableRawPointer(connect))
            }
            return ab_curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            return .failed(ab_curl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)")
        }
        var status = 0
        _ = ab_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .answered(status: status)
    }
}
