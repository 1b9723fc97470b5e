// SharedURL: a strict RFC 3986 parse of the absolute URL being shared, done once per request.

/// An absolute URL (RFC 3986 `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`), parsed by our own
/// rules rather than Foundation's lenient ones, so the host the rules see is the host a browser would use.
///
/// Accepted: at most 32 KiB; characters of RFC 3986, plus non-ASCII characters outside the
/// authority's port and the scheme (IRI style, RFC 3987) that are not controls, format characters
/// or spaces. Rejected: relative references, spaces, control characters, stray `%`, more than one
/// `@` in the authority, a bad port, an invalid IPv6 literal, and `http`/`https` without a host.
public struct SharedURL: Hashable, Sendable, CustomStringConvertible {
    /// The largest URL accepted (API.md §2).
    public static let maxLength = 32 * 1024

    /// The URL exactly as given.
    public let string: String
    /// The scheme, lower-cased.
    public let scheme: String
    /// The userinfo before `@` in the authority, as given (never used for matching).
    public let userinfo: String?
    /// The host: `nil` without an authority (e.g. `mailto:`); registered names lower-cased, without a
    /// trailing dot, IDNA (`xn--`) ASCII, percent-escapes decoded; IPv6 in RFC 5952 form without brackets.
    public let host: String?
    /// The port number when one is given.
    public let port: Int?
    /// The path after RFC 3986 §6 normalization: escapes of unreserved characters decoded, other
    /// escapes upper-cased, dot segments removed, and "/" for an empty path after an authority.
    public let path: String
    /// The query without `?`, as given.
    public let query: String?
    /// The fragment without `#`, as given.
    public let fragment: String?

    /// Parses `string`.
    /// - Throws: `.invalidArgument` naming what is wrong (too long, no scheme, bad character and where, …).
    public init(_ string: String) throws(ActivityError) {
        let bytes = Array(string.utf8)
        if bytes.isEmpty { throw .invalidArgument("URL is empty") }
        if bytes.count > SharedURL.maxLength {
            throw .invalidArgument(
                "URL is \(bytes.count) bytes long; at most \(SharedURL.maxLength) (32 KiB) are allowed")
        }
        try SharedURL.checkCharacters(string)
        self.string = string

        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            SharedURL.isAlpha(bytes[0]),
            bytes[1..<colon].allSatisfy({ HostName.isAlnum($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else {
            throw .invalidArgument("URL has no scheme: an absolute URL starts with a scheme such as 'https:'")
        }
        scheme = String(decoding: bytes[0..<colon], as: UTF8.self).lowercased()

        var rest = bytes[(colon + 1)...]
        // Split off the fragment, then the query.
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: rest[(hash + 1)...], as: UTF8.self)
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let q = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = String(decoding: rest[(q + 1)...], as: UTF8.self)
            rest = rest[..<q]
        } else {
            query = nil
        }
        for part in [query, fragment] {
            if let part, part.utf8.contains(UInt8(ascii: "#")) {
                throw .invalidArgument("URL contains a second '#'")
            }
        }
        try SharedURL.checkEscapes(bytes)

        var rawPath: ArraySlice<UInt8>
        if rest.starts(with: [0x2F, 0x2F]) {
            let authorityStart = rest.startIndex + 2
            let authorityEnd = rest[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let authority = try SharedURL.parseAuthority(rest[authorityStart..<authorityEnd])
            userinfo = authority.userinfo
            host = authority.host
            port = authority.port
            rawPath = rest[authorityEnd...]
        } else {
            userinfo = nil
            host = nil
            port = nil
            rawPath = rest
        }
        if rawPath.contains(UInt8(ascii: "[")) || rawPath.contains(UInt8(ascii: "]")) {
            throw .invalidArgument("URL path contains '[' or ']', which must be percent-encoded")
        }
        for part in [query, fragment] {
            if let part, part.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) {
                throw .invalidArgument(
                    "URL query or fragment contains '[' or ']', which must be percent-encoded")
            }
        }
        if host == nil && rawPath.starts(with: [0x2F, 0x2F]) {
            throw .invalidArgument("URL path starts with '//' without an authority")
        }
        if (scheme == "http" || scheme == "https") && (host ?? "").isEmpty {
            throw .invalidArgument("\(scheme) URL has no host")
        }
        var normalized = SharedURL.normalizePath(String(decoding: rawPath, as: UTF8.self))
        if host != nil && normalized.isEmpty { normalized = "/" }
        path = normalized
    }

    public var description: String { string }

    /// Rejects characters no URL may hold, naming the first one and its byte offset.
    /// The ASCII symbols a URL may hold as they are (RFC 3986 reserved and unreserved, and '%').
    private static let urlSymbols = ASCIISet("-._~:/?#[]@!$&'()*+,;=%")

    /// The unreserved symbols of RFC 3986: decoded where they were percent-encoded.
    private static let unreservedSymbols = ASCIISet("-._~")

    static func checkCharacters(_ string: String) throws(ActivityError) {
        var offset = 0
        for sc in string.unicodeScalars {
            defer { offset += sc.utf8.count }
            if sc.isASCII {
                let b = UInt8(sc.value)
                if HostName.isAlnum(b) || Self.urlSymbols.contains(b) { continue }
                let what: String
                switch b {
                case 0x20: what = "a space"
                case 0x00..<0x20, 0x7F: what = "a control character (U+\(hex4(sc.value)))"
                default: what = "'\(Character(sc))', which must be percent-encoded"
                }
                throw .invalidArgument("URL contains \(what) at byte \(offset)")
            }
            switch sc.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
                .privateUse, .unassigned, .surrogate:
                throw .invalidArgument(
                    "URL contains the invisible or control character U+\(hex4(sc.value)) at byte \(offset)")
            default:
                continue
            }
        }
    }

    /// Every `%` must start a two-digit hex escape.
    static func checkEscapes(_ bytes: [UInt8]) throws(ActivityError) {
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, HostName.isHex(bytes[i + 1]), HostName.isHex(bytes[i + 2])
                else {
                    throw .invalidArgument("URL contains '%' at byte \(i) that does not start a %XX escape")
                }
                i += 3
            } else {
                i += 1
            }
        }
    }

    /// authority = [ userinfo "@" ] host [ ":" port ]
    static func parseAuthority(_ a: ArraySlice<UInt8>) throws(ActivityError) -> (
        userinfo: String?, host: String, port: Int?
    ) {
        var hostPort = a
        var userinfo: String? = nil
        let ats = a.indices.filter { a[$0] == UInt8(ascii: "@") }
        if ats.count > 1 {
            throw .invalidArgument(
                "URL authority contains more than one '@'; an '@' in the user name must be percent-encoded")
        }
        if let at = ats.first {
            let u = a[a.startIndex..<at]
            if u.contains(UInt8(ascii: "[")) || u.contains(UInt8(ascii: "]")) {
                throw .invalidArgument("URL user information contains '[' or ']'")
            }
            userinfo = String(decoding: u, as: UTF8.self)
            hostPort = a[(at + 1)...]
        }
        var hostPart: ArraySlice<UInt8>
        var portPart: ArraySlice<UInt8>? = nil
        let host: String
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidArgument("URL host starts with '[' but has no closing ']'")
            }
            hostPart = hostPort[(hostPort.startIndex + 1)..<close]
            let after = hostPort[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else {
                    throw .invalidArgument(
                        "URL has characters after the IPv6 literal's ']' that are not a port")
                }
                portPart = after.dropFirst()
            }
            let literal = String(decoding: hostPart, as: UTF8.self)
            if literal.hasPrefix("v") || literal.hasPrefix("V") {
                throw .invalidArgument(
                    "URL host '[\(literal)]' is an IPvFuture literal, which is not supported")
            }
            guard let canonical = HostName.canonicalIPv6(literal) else {
                throw .invalidArgument("URL host '[\(literal)]' is not a valid IPv6 address")
            }
            host = canonical
        } else {
            if hostPort.contains(UInt8(ascii: "[")) || hostPort.contains(UInt8(ascii: "]")) {
                throw .invalidArgument("URL host contains '[' or ']' outside an IPv6 literal")
            }
            if let c = hostPort.lastIndex(of: UInt8(ascii: ":")) {
                hostPart = hostPort[hostPort.startIndex..<c]
                portPart = hostPort[(c + 1)...]
            } else {
                hostPart = hostPort
            }
            if hostPart.contains(UInt8(ascii: ":")) {
                throw .invalidArgument("URL host contains ':'; an IPv6 address must be written in brackets")
            }
            if hostPart.isEmpty {
                host = ""
            } else {
                // Escapes are decoded before the host is normalized, so "%65vil.org" is "evil.org".
                guard let decoded = percentDecoded(hostPart) else {
                    throw .invalidArgument("URL host contains escapes that are not UTF-8")
                }
                do {
                    host = try HostName.normalizeRegName(decoded)
                } catch {
                    throw .invalidArgument("URL \(error.message)")
                }
            }
        }
        var port: Int? = nil
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let p = Int(String(decoding: portPart, as: UTF8.self)), p <= 65535
            else {
                throw .invalidArgument(
                    "URL port '\(String(decoding: portPart.prefix(20), as: UTF8.self))' is not a number from 0 to 65535"
                )
            }
            port = p
        }
        return (userinfo, host, port)
    }

    /// Decodes every %XX escape; `nil` when the result is not UTF-8.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        // Without escapes the bytes are a slice of a Swift string cut at ASCII bytes: valid UTF-8.
        if !bytes.contains(UInt8(ascii: "%")) { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex,
                let v = HostName.escapedByte(bytes[i + 1], bytes[i + 2])
            {
                out.append(v)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// RFC 3986 §6.2.2: escapes of unreserved characters decoded, other escapes upper-cased, dot
    /// segments removed (for paths starting with "/").
    public static func normalizePath(_ path: String) -> String {
        // The usual path has neither escapes nor dot segments: it is its own normal form.
        if !path.utf8.contains(UInt8(ascii: "%")) && !hasDotSegment(path) { return path }
        var out: [UInt8] = []
        let b = Array(path.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "%"), i + 2 < b.count,
                let v = HostName.escapedByte(b[i + 1], b[i + 2])
            {
                if HostName.isAlnum(v) || Self.unreservedSymbols.contains(v) {
                    out.append(v)
                } else {
                    out.append(contentsOf: "%".utf8)
                    out.appendHex(v)
                }
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        let decoded = String(decoding: out, as: UTF8.self)
        return decoded.hasPrefix("/") ? removeDotSegments(decoded) : decoded
    }

    /// Whether a segment of `path` (after a `/`, or at its start) is `.` or `..`.
    static func hasDotSegment(_ path: String) -> Bool {
        var segmentStart = true
        var dots = 0
        for b in path.utf8 {
            if b == UInt8(ascii: "/") {
                if dots > 0 { return true }
                segmentStart = true
            } else if segmentStart && b == UInt8(ascii: ".") && dots < 2 {
                dots += 1
            } else {
                segmentStart = false
                dots = 0
            }
        }
        return dots > 0
    }

    /// RFC 3986 §5.2.4 for an absolute path.
    static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (i, seg) in segments.enumerated() {
            let last = i == segments.count - 1
            switch seg {
            case ".":
                if last { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(seg)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
}

func hex4(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

extension String {
    /// Two upper-case hex digits.
    init(format2 v: UInt8) {
        var bytes: [UInt8] = []
        bytes.appendHex(v)
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension [UInt8] {
    /// Appends `v` as two upper-case hex digits: no string per byte on the percent-encoding
    /// paths, which run for every offered `open` activity on every `ListActivities`.
    mutating func appendHex(_ v: UInt8) {
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }
        append(digit(v >> 4))
        append(digit(v & 0xF))
    }
}
