// HostName: normalization of URL hosts and host patterns (lower case, no trailing dot, IDNA, IPv6 canonical form).

/// Turns hosts into the one form they are compared in: registered names lower-cased, without a
/// trailing dot, Unicode labels converted to `xn--` Punycode; IPv6 literals in RFC 5952 form
/// without brackets. The same function serves URLs and match-rule globs, so both sides agree.
public enum HostName {
    /// DNS limits, applied to registered names.
    static let maxLabelLength = 63, maxLength = 253

    /// Normalizes a registered name (already percent-decoded).
    /// - Throws: `.invalidArgument` describing the bad label or character.
    public static func normalizeRegName(_ input: String) throws(ActivityError) -> String {
        if isNormalASCIIName(input) { return input }
        var s = input
        // UTS 46 maps the ideographic and full-width full stops to '.'.
        if s.unicodeScalars.contains(where: { $0 == "\u{3002}" || $0 == "\u{FF0E}" || $0 == "\u{FF61}" }) {
            s = String(
                String.UnicodeScalarView(
                    s.unicodeScalars.map {
                        ($0 == "\u{3002}" || $0 == "\u{FF0E}" || $0 == "\u{FF61}") ? "." : $0
                    }))
        }
        if s.hasSuffix(".") { s.removeLast() }
        if s.isEmpty { throw .invalidArgument("host is empty") }
        var labels: [String] = []
        for raw in s.split(separator: ".", omittingEmptySubsequences: false) {
            if raw.isEmpty { throw .invalidArgument("host '\(printable(input))' has an empty label") }
            let label: String
            // UTS 46 maps compatibility forms (full-width letters, …) and case before Punycode, so
            // "ｅｘａｍｐｌｅ" is "example" and "BÜCHER" is "bücher"; NFKC and lower-casing approximate it.
            let folded: String
            if raw.utf8.allSatisfy({ $0 < 0x80 }) {
                folded = raw.lowercased()
            } else {
                guard let mapped = UnicodeNormalization.normalize(String(raw), .nfkc),
                    let refolded = UnicodeNormalization.normalize(mapped.lowercased(), .nfkc)
                else {
                    throw .invalidArgument("host label '\(printable(String(raw)))' cannot be normalized here")
                }
                folded = refolded
            }
            if folded.utf8.allSatisfy({ $0 < 0x80 }) {
                for b in folded.utf8 where !isRegNameASCII(b) {
                    let shown =
                        b < 0x21 || b == 0x7F ? "U+\(hex4(UInt32(b)))" : "'\(Character(Unicode.Scalar(b)))'"
                    throw .invalidArgument(
                        "host '\(printable(input))' contains \(shown), which a host name cannot hold")
                }
                label = folded
            } else {
                if folded.contains(".") {
                    throw .invalidArgument("host '\(printable(input))' has a label that folds into a '.'")
                }
                for sc in folded.unicodeScalars where sc.isASCII {
                    let b = UInt8(sc.value)
                    if !(isAlnum(b) || b == UInt8(ascii: "-")) {
                        throw .invalidArgument(
                            "host '\(printable(input))' mixes '\(printable(String(sc)))' into an international label"
                        )
                    }
                }
                guard let encoded = Punycode.encode(folded) else {
                    throw .invalidArgument("host label '\(raw)' cannot be converted to ASCII")
                }
                label = "xn--" + encoded
            }
            if label.utf8.count > maxLabelLength {
                throw .invalidArgument(
                    "host label '\(label.prefix(80))' is longer than \(maxLabelLength) characters")
            }
            labels.append(label)
        }
        let result = labels.joined(separator: ".")
        if result.utf8.count > maxLength {
            throw .invalidArgument("host is longer than \(maxLength) characters")
        }
        return result
    }

    /// Whether `name` is already what `normalizeRegName` makes of it, the usual case: lower-case
    /// ASCII letters, digits and `-` in non-empty labels of at most 63 bytes, no trailing dot,
    /// at most 253 bytes. One pass over the bytes, no label strings: every URL's host goes here.
    private static func isNormalASCIIName(_ name: String) -> Bool {
        var total = 0, label = 0
        for b in name.utf8 {
            total += 1
            if b == UInt8(ascii: ".") {
                if label == 0 { return false }
                label = 0
            } else if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") {
                label += 1
                if label > maxLabelLength { return false }
            } else {
                return false
            }
        }
        return label > 0 && total <= maxLength
    }

    /// `s` with control characters shown as U+XXXX, so a message never carries them raw.
    static func printable(_ s: String) -> String {
        var out = ""
        for sc in s.unicodeScalars {
            if sc.value < 0x20 || sc.value == 0x7F || (0x80..<0xA0).contains(sc.value) {
                out += "U+\(hex4(sc.value))"
            } else {
                out.unicodeScalars.append(sc)
            }
        }
        return out
    }

    /// Registered-name characters of RFC 3986 (unreserved and sub-delims) as they may appear
    /// after percent-decoding.
    static func isRegNameASCII(_ b: UInt8) -> Bool {
        isAlnum(b) || regNameSymbols.contains(b)
    }

    private static let regNameSymbols = ASCIISet("-._~!$&'()*+,;=")

    static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// Parses an IPv6 address (no brackets, no zone id) into its RFC 5952 text form; `nil` when invalid.
    public static func canonicalIPv6(_ s: String) -> String? {
        guard let groups = parseIPv6(s) else { return nil }
        // The longest run of two or more zero groups becomes "::" (the first such run on a tie).
        var bestStart = -1, bestLen = 0, i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLen && j - i >= 2 { bestStart = i; bestLen = j - i }
                i = j
            } else {
                i += 1
            }
        }
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        if bestStart < 0 { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLen)..<8)
    }

    /// The eight 16-bit groups of an IPv6 address, accepting "::" once and a trailing dotted IPv4 part.
    static func parseIPv6(_ s: String) -> [UInt16]? {
        let parts = s.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 2 { return nil }
        func groups(_ part: String, allowIPv4: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (i, f) in fields.enumerated() {
                if allowIPv4 && i == fields.count - 1 && f.contains(".") {
                    guard let v4 = parseIPv4(String(f)) else { return nil }
                    out.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    out.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard (1...4).contains(f.utf8.count), f.utf8.allSatisfy({ isHex($0) }),
                        let v = UInt16(f, radix: 16)
                    else { return nil }
                    out.append(v)
                }
            }
            return out
        }
        if parts.count == 1 {
            guard let g = groups(parts[0], allowIPv4: true), g.count == 8 else { return nil }
            return g
        }
        guard let head = groups(parts[0], allowIPv4: false), let tail = groups(parts[1], allowIPv4: true),
            head.count + tail.count <= 7
        else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    static func parseIPv4(_ s: String) -> [UInt8]? {
        let fields = s.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 4 else { return nil }
        var out: [UInt8] = []
        for f in fields {
            guard (1...3).contains(f.utf8.count), f.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                !(f.utf8.count > 1 && f.hasPrefix("0")), let v = UInt8(f)
            else { return nil }
            out.append(v)
        }
        return out
    }

    static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// The byte a `%XX` escape's two digits spell, nil unless both are hex digits
    /// (`UInt8(_:radix:)` would also take a sign: "+1", "-0").
    static func escapedByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard isHex(high), isHex(low) else { return nil }
        func value(_ d: UInt8) -> UInt8 { d <= 0x39 ? d - 0x30 : (d | 0x20) - 0x61 + 10 }
        return value(high) << 4 | value(low)
    }
}
