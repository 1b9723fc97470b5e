// HTMLScanner: a tolerant tokenizer for HTML pages (tags, attributes, text, comments).

/// One attribute of a start tag; the name is lowercased, the value has its entities decoded.
public struct HTMLAttribute: Hashable, Sendable {
    /// The attribute name, ASCII-lowercased.
    public var name: String
    /// The value with character references decoded; empty for a bare attribute.
    public var value: String
    // Made only by the scanner: the memberwise initializer stays internal.
}

/// One token of an HTML page.
public enum HTMLToken: Hashable, Sendable {
    /// `<name attr=value …>`; `name` lowercased; later duplicates of an attribute are dropped.
    case startTag(name: String, attributes: [HTMLAttribute], selfClosing: Bool)
    /// `</name>`; attributes on an end tag are ignored.
    case endTag(name: String)
    /// Character data with references decoded (whitespace kept as it came).
    case text(String)
    /// `<!-- … -->`, with its content.
    case comment(String)
}

extension [HTMLAttribute] {
    /// The value of the first attribute named `name` (lowercase), if present.
    public func value(of name: String) -> String? {
        first { $0.name == name }?.value
    }
}

/// A tolerant HTML tokenizer: never fails, never builds a tree.
///
/// It knows just enough of the HTML syntax for metadata and links: tags with quoted, single
/// quoted and unquoted attributes, comments, doctype and processing instructions (skipped),
/// `<script>` and `<style>` whose content is skipped without looking for tags in it, and
/// `<title>` / `<textarea>` whose content is text even when it looks like markup. Input is
/// taken as UTF-8 (invalid sequences become U+FFFD): `PageCharset` converts a page first.
/// A tag cut off by the end of the input is dropped.
///
/// Linear in its input: every loop moves forward through the bytes and never rescans them,
/// and a tag's attributes are told apart with a set (a list searched for each attribute
/// made a tag with 40,000 attributes take seconds). `work` counts the steps.
public struct HTMLScanner: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var position = 0
    /// Steps taken so far: bytes passed over (each once), plus one per token and per attribute.
    public private(set) var work = 0
    /// Set after a start tag whose content is raw text (script, style) or escapable raw
    /// text (title, textarea), until its end tag.
    private var rawTextElement: (name: [UInt8], decode: Bool)?

    /// Scans the UTF-8 bytes of a page.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Scans a page given as a string.
    public init(_ html: String) {
        self.init(bytes: Array(html.utf8))
    }

    /// All tokens of `html`.
    public static func tokens(_ html: String) -> [HTMLToken] {
        Array(HTMLScanner(html))
    }

    /// The next token, or `nil` at the end of the input.
    public mutating func next() -> HTMLToken? {
        let start = position
        defer { work += position - start + 1 }
        while position < bytes.count {
            if let raw = rawTextElement {
                rawTextElement = nil
                let end = findEndTag(raw.name, from: position)
                let start = position
                position = end
                if raw.decode, end > start {
                    return .text(HTMLEntities.decode(bytes[start..<end], inAttribute: false))
                }
                continue
            }
            if bytes[position] == UInt8(ascii: "<"), startsMarkup(at: position) {
                if let token = scanMarkup() { return token }
                continue  // skipped: doctype, processing instruction, bogus comment
            }
            return scanText()
        }
        return nil
    }

    // MARK: - Text

    /// Text up to the next `<` that starts markup; a `<` that starts nothing is text.
    private mutating func scanText() -> HTMLToken {
        let start = position
        position += 1  // the first byte is text even when it is a stray `<`
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "<"), startsMarkup(at: position) { break }
            position += 1
        }
        return .text(HTMLEntities.decode(bytes[start..<position], inAttribute: false))
    }

    private func startsMarkup(at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let next = bytes[index + 1]
        return isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!")
            || next == UInt8(ascii: "?")
    }

    // MARK: - Markup

    /// Scans markup at a `<` that starts markup; `nil` when it yields no token (skipped).
    private mutating func scanMarkup() -> HTMLToken? {
        let next = bytes[position + 1]
        if next == UInt8(ascii: "!") {
            if hasPrefix("<!--", at: position) { return scanComment() }
            skipPast(UInt8(ascii: ">"), from: position + 2)  // doctype, CDATA, bogus comment
            return nil
        }
        if next == UInt8(ascii: "?") {
            skipPast(UInt8(ascii: ">"), from: position + 2)
            return nil
        }
        if next == UInt8(ascii: "/") {
            guard position + 2 < bytes.count, isASCIILetter(bytes[position + 2]) else {
                // `</>` is dropped; `</ x>` and the like are bogus comments.
                skipPast(UInt8(ascii: ">"), from: position + 2)
                return nil
            }
            position += 2
            let name = scanTagName()
            skipPast(UInt8(ascii: ">"), from: position)
            return .endTag(name: name)
        }
        return scanStartTag()
    }

    private mutating func scanComment() -> HTMLToken? {
        let start = position + 4
        var index = start
        while index < bytes.count, !hasPrefix("-->", at: index) { index += 1 }
        // `<!-->` and `<!--->` close at once, as browsers do.
        let end = Swift.min(index, bytes.count)
        position = Swift.min(index + 3, bytes.count)
        return .comment(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    private mutating func scanStartTag() -> HTMLToken? {
        position += 1
        let name = scanTagName()
        var attributes: [HTMLAttribute] = []
        var names: Set<String> = []
        var selfClosing = false
        while true {
            skipWhitespace()
            guard position < bytes.count else { return nil }  // cut-off tag: dropped
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
                    selfClosing = true
                    position += 1
                    break
                }
                continue
            }
            let attribute = scanAttribute()
            work += 1
            if names.insert(attribute.name).inserted {
                attributes.append(attribute)
            }
        }
        switch name {
        case "script", "style": rawTextElement = (Array(name.utf8), false)
        case "title", "textarea": rawTextElement = (Array(name.utf8), true)
        default: break
        }
        if selfClosing { rawTextElement = nil }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func scanTagName() -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
            position += 1
        }
        return lowercased(bytes[start..<position])
    }

    private mutating func scanAttribute() -> HTMLAttribute {
        let nameStart = position
        position += 1  // a leading `=` belongs to the name, as in HTML
        while position < bytes.count {
            let byte = bytes[position]
            if isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "=")
            {
                break
            }
            position += 1
        }
        let name = lowercased(bytes[nameStart..<position])
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
            return HTMLAttribute(name: name, value: "")
        }
        position += 1
        skipWhitespace()
        guard position < bytes.count else { return HTMLAttribute(name: name, value: "") }
        let quote = bytes[position]
        let valueStart: Int
        let valueEnd: Int
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            valueStart = position + 1
            var index = valueStart
            while index < bytes.count, bytes[index] != quote { index += 1 }
            valueEnd = index
            position = Swift.min(index + 1, bytes.count)
        } else {
            valueStart = position
            while position < bytes.count, !isWhitespace(bytes[position]), bytes[position] != UInt8(ascii: ">")
            {
                position += 1
            }
            valueEnd = position
        }
        return HTMLAttribute(
            name: name, value: HTMLEntities.decode(bytes[valueStart..<valueEnd], inAttribute: true))
    }

    // MARK: - Helpers

    /// The index of `</name` (ASCII case-insensitive) followed by whitespace, `/` or `>`, or
    /// the end of the input.
    private func findEndTag(_ name: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 + name.count < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") {
                var matches = true
                for offset in 0..<name.count where asciiLower(bytes[index + 2 + offset]) != name[offset] {
                    matches = false
                    break
                }
                if matches {
                    let after = index + 2 + name.count
                    if after >= bytes.count || isWhitespace(bytes[after]) || bytes[after] == UInt8(ascii: "/")
                        || bytes[after] == UInt8(ascii: ">")
                    {
                        return index
                    }
                }
            }
            index += 1
        }
        return bytes.count
    }

    private mutating func skipPast(_ byte: UInt8, from start: Int) {
        var index = start
        while index < bytes.count, bytes[index] != byte { index += 1 }
        position = Swift.min(index + 1, bytes.count)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
    }

    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let base = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] != base[offset] { return false }
        return true
    }

    private func lowercased(_ slice: ArraySlice<UInt8>) -> String {
        String(decoding: slice.map(asciiLower), as: UTF8.self)
    }
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

private func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
