// The URL fuzz target: SharedURL, the strict RFC 3986 parse every shared URL goes through.
import ActivityKit

extension FuzzTarget {
    /// `SharedURL(_:)` on the input as UTF-8 (invalid sequences become U+FFFD, as a D-Bus
    /// string cannot hold them).
    ///
    /// Properties: no component of an accepted URL holds a control character; the scheme is
    /// lower-case ASCII; the URL is within `SharedURL.maxLength`; the port fits 16 bits;
    /// parsing the accepted string again gives the same components; an error says what is
    /// wrong without control characters.
    public static let sharedURL = FuzzTarget(
        name: "url",
        dictionary: [
            "https:", "http:", "mailto:", "file:", "javascript:", "HTTPS:", "//", "/", "@", ":", "::", "[", "]",
            "[::1]", "[v1.x]", "[::ffff:1.2.3.4]", "%", "%2", "%25", "%2e", "%2E%2e", "%00", "%0a", "%7B", "?", "#",
            "..", "/../", "/./", ":0", ":65535", ":65536", ":99999999999999999999", "xn--", "xn--nxasmq6b",
            "localhost", "example.org", ".", "user:pass@", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}",
            "\u{200B}", "\u{202E}", "\u{FEFF}", "\u{3000}", "ｅｘａｍｐｌｅ", "ß", "İ", "\u{E9}", "e\u{301}", " ",
        ]
    ) { bytes throws(FuzzFailure) in
        let string = String(decoding: bytes, as: UTF8.self)
        let url: SharedURL
        do throws(ActivityError) { url = try SharedURL(string) } catch {
            try FuzzFailure.require(
                !error.message.isEmpty && error.name == "InvalidArgument", "a URL error is InvalidArgument",
                "\(error)")
            try FuzzFailure.require(
                !TextChecks.hasControl(error.message), "a URL error holds no control characters",
                TextChecks.shown(error.message))
            return false
        }
        let components: [(String, String?)] = [
            ("scheme", url.scheme), ("userinfo", url.userinfo), ("host", url.host), ("path", url.path),
            ("query", url.query), ("fragment", url.fragment), ("string", url.string),
        ]
        for (name, value) in components {
            if let value {
                try FuzzFailure.require(
                    !TextChecks.hasControl(value), "a URL's \(name) holds no control characters",
                    TextChecks.shown(value))
            }
        }
        try FuzzFailure.require(
            !url.scheme.isEmpty
                && url.scheme.utf8.allSatisfy {
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                }, "a URL's scheme is lower-case ASCII", TextChecks.shown(url.scheme))
        try FuzzFailure.require(
            url.string.utf8.count <= SharedURL.maxLength, "a URL is within SharedURL.maxLength",
            "\(url.string.utf8.count) bytes")
        if let port = url.port {
            try FuzzFailure.require((0...65535).contains(port), "a URL's port fits 16 bits", "\(port)")
        }
        if url.scheme == "http" || url.scheme == "https" {
            try FuzzFailure.require(!(url.host ?? "").isEmpty, "an http(s) URL has a host", url.string)
        }
        let again: SharedURL
        do { again = try SharedURL(url.string) } catch {
            throw FuzzFailure("an accepted URL is accepted again", "\(error)")
        }
        try FuzzFailure.require(again == url, "an accepted URL parses the same again", TextChecks.shown(url.string))
        return true
    }
}
