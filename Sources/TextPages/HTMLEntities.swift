// HTMLEntities: decoding of HTML character references (&amp; &#39; &#x27; …).

/// Decodes HTML character references in UTF-8 text.
///
/// Numeric references (`&#39;`, `&#x27;`, with or without the `;`) are decoded as HTML
/// does: 0, surrogates and values past U+10FFFF become U+FFFD, and 0x80–0x9F are read as
/// windows-1252. Of the 2,000-odd named references only the common ones are known; an
/// unknown name is left as it came. A name needs its `;`, except the legacy `&amp` `&lt`
/// `&gt` `&quot` `&nbsp` `&copy` `&reg`, which in an attribute count only when not followed
/// by a letter, digit or `=` (so that `?a=1&copy=2` survives in a URL).
public enum HTMLEntities {
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}", "hellip": "\u{2026}",
        "mdash": "\u{2014}", "ndash": "\u{2013}", "lsquo": "\u{2018}", "rsquo": "\u{2019}",
        "ldquo": "\u{201C}", "rdquo": "\u{201D}", "laquo": "\u{AB}", "raquo": "\u{BB}",
        "middot": "\u{B7}", "bull": "\u{2022}", "times": "\u{D7}", "euro": "\u{20AC}",
        "pound": "\u{A3}", "yen": "\u{A5}", "cent": "\u{A2}", "sect": "\u{A7}", "deg": "\u{B0}",
        "shy": "\u{AD}", "zwj": "\u{200D}", "zwnj": "\u{200C}", "thinsp": "\u{2009}",
        "ensp": "\u{2002}", "emsp": "\u{2003}", "dagger": "\u{2020}", "larr": "\u{2190}",
        "rarr": "\u{2192}", "uarr": "\u{2191}", "darr": "\u{2193}", "para": "\u{B6}",
        "eacute": "\u{E9}", "egrave": "\u{E8}", "aacute": "\u{E1}", "agrave": "\u{E0}",
        "uuml": "\u{FC}", "ouml": "\u{F6}", "auml": "\u{E4}", "Uuml": "\u{DC}", "Ouml": "\u{D6}",
        "Auml": "\u{C4}", "szlig": "\u{DF}", "ccedil": "\u{E7}", "ntilde": "\u{F1}",
    ]
    static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]
    /// windows-1252 for 0x80…0x9F (0 where HTML keeps the code point).
    static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,
        0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0, 0x017E, 0x0178,
    ]

    /// Decodes `text`, given as a string.
    public static func decode(_ text: String, inAttribute: Bool = false) -> String {
        decode(Array(text.utf8)[...], inAttribute: inAttribute)
    }

    /// Decodes UTF-8 `bytes`; invalid UTF-8 becomes U+FFFD.
    public static func decode(_ bytes: ArraySlice<UInt8>, inAttribute: Bool) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&"),
                let (scalar, end) = reference(in: bytes, at: index, inAttribute: inAttribute)
            {
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = end
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The reference starting at the `&` at `start`, and the index after it.
    private static func reference(in bytes: ArraySlice<UInt8>, at start: Int, inAttribute: Bool)
        -> (Unicode.Scalar, Int)?
    {
        var index = start + 1
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == UInt8(ascii: "#") {
            index += 1
            var radix: UInt32 = 10
            if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                index += 1
            }
            let digitsStart = index
            var value: UInt32 = 0
            while index < bytes.endIndex, let digit = digitValue(bytes[index], radix: radix) {
                value = min(value &* radix &+ digit, 0x110000)  // clamp: overflow is out of range anyway
                index += 1
            }
            guard index > digitsStart else { return nil }
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") { index += 1 }
            return (numericScalar(value), index)
        }
        let nameStart = index
        while index < bytes.endIndex, index - nameStart < 32, isAlphanumeric(bytes[index]) { index += 1 }
        guard index > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") {
            guard let scalar = named[name] else { return nil }
            return (scalar, index + 1)
        }
        guard legacy.contains(name), let scalar = named[name] else { return nil }
        if inAttribute, index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") { return nil }
        return (scalar, index)
    }

    private static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80, value <= 0x9F, windows1252[Int(value - 0x80)] != 0 {
            return Unicode.Scalar(windows1252[Int(value - 0x80)]) ?? "\u{FFFD}"
        }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"  // nil for surrogates and past U+10FFFF
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
            return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
            return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
