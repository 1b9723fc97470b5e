// PageCharset: finds a page's character encoding (BOM, Content-Type, <meta>) and converts it to UTF-8.

import Foundation

/// The encoding of a page, found as browsers find it, and the conversion to the UTF-8 the
/// scanner reads.
///
/// In order (the HTML standard's): a byte order mark; the `charset` of the `Content-Type`
/// header; a `<meta charset>` or `<meta http-equiv=Content-Type content="…; charset=…">` in
/// the first 1,024 bytes; else UTF-8. Labels are the standard's: ISO-8859-1, US-ASCII and
/// their aliases mean windows-1252, as in browsers. Unknown labels fall back to UTF-8, whose
/// invalid sequences the scanner shows as U+FFFD.
public enum PageCharset {
    /// Bytes the `<meta>` prescan looks at.
    public static let prescanLength = 1024

    /// `body` converted to UTF-8.
    public static func utf8(_ body: [UInt8], contentType: String?) -> [UInt8] {
        let (encoding, skip) = detect(body, contentType: contentType)
        guard encoding != .utf8 else { return skip == 0 ? body : Array(body.dropFirst(skip)) }
        let data = Data(body.dropFirst(skip))
        // windows-1252 leaves five bytes unassigned, which Foundation refuses; Latin-1 maps every byte.
        let text =
            String(data: data, encoding: encoding)
            ?? (encoding == .windowsCP1252 ? String(data: data, encoding: .isoLatin1) : nil)
        return text.map { Array($0.utf8) } ?? body
    }

    /// The encoding of `body` and the length of its byte order mark.
    public static func detect(_ body: [UInt8], contentType: String?) -> (String.Encoding, Int) {
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if body.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if body.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if let label = contentType.flatMap(charsetParameter), let encoding = encoding(label: label) {
            return (encoding, 0)
        }
        if let label = metaCharset(body), let encoding = encoding(label: label) {
            // A page cannot declare UTF-16 in ASCII-compatible bytes: the standard reads UTF-8.
            return (encoding == .utf16LittleEndian || encoding == .utf16BigEndian ? .utf8 : encoding, 0)
        }
        return (.utf8, 0)
    }

    /// The encoding for a charset label, or `nil` for a label not supported.
    public static func encoding(label: String) -> String.Encoding? {
        switch label.trimmingCharacters(in: .whitespaces).lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8": .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819", "us-ascii", "ascii",
            "windows-1252", "cp1252", "x-cp1252":
            .windowsCP1252
        case "shift_jis", "shift-jis", "sjis", "ms_kanji", "x-sjis", "windows-31j", "csshiftjis", "ms932":
            .shiftJIS
        case "euc-jp", "x-euc-jp": .japaneseEUC
        case "iso-8859-2", "latin2", "l2": .isoLatin2
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "utf-16le", "utf-16": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        default: nil
        }
    }

    /// The `charset` parameter of a `Content-Type` value (`text/html; charset="Shift_JIS"`).
    static func charsetParameter(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
            else {
                continue
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return nil
    }

    /// The charset a `<meta>` in the first `prescanLength` bytes declares.
    static func metaCharset(_ body: [UInt8]) -> String? {
        for token in HTMLScanner(bytes: Array(body.prefix(prescanLength))) {
            guard case .startTag("meta", let attributes, _) = token else { continue }
            if let charset = attributes.value(of: "charset"), !charset.isEmpty { return charset }
            if attributes.value(of: "http-equiv")?.lowercased() == "content-type",
                let content = attributes.value(of: "content"), let charset = charsetParameter(content)
            {
                return charset
            }
        }
        return nil
    }
}
