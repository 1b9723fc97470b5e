// JSONValue: a plain JSON tree, so manifest type errors are reported in our words, not Foundation's.

/// A decoded JSON value. Numbers that are integral and fit in `Int` decode as `.int`.
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data` (RFC 8259, UTF-8); `nil` when it is not JSON.
    ///
    /// A direct parser over the bytes: going through `JSONDecoder` and `Decodable` tried each
    /// kind in turn, and each miss threw an error with its coding path, which made reading
    /// 1,000 manifests take half a second.
    static func parse(_ data: [UInt8]) -> JSONValue? {
        data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return parser.document()
        }
    }

    /// Parses `data` like `parse`, and on failure says where (a byte offset) and why.
    ///
    /// The same parser as `parse`: it only notes the first failure, so the broker's path
    /// costs nothing more.
    static func parseReportingError(_ data: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            if let value = parser.document() { return .success(value) }
            let failure = parser.failure ?? (parser.position, "not valid JSON")
            return .failure(JSONSyntaxError(offset: failure.offset, reason: failure.reason))
        }
    }

    /// The byte offsets of the value at `path` in `data` and, when its last step is an
    /// object key, of that key; nil when the path is not in the document.
    ///
    /// For messages only (`share check`): it walks the bytes again, skipping siblings with
    /// the same parser, so the tree `parse` builds needs to carry no positions. Where a key
    /// is repeated, the last one counts, as in `parse`.
    static func offsets(of path: [JSONPathStep], in data: [UInt8]) -> (key: Int?, value: Int)? {
        data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return parser.locate(path)
        }
    }

    /// "a string", "an array", … for messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Why and where a document is not JSON.
struct JSONSyntaxError: Error, Equatable, Sendable {
    /// The byte offset where parsing stopped.
    let offset: Int
    let reason: String
}

/// One step into a JSON document: an object's key or an array's index.
enum JSONPathStep: Hashable, Sendable {
    case key(String)
    case index(Int)
}

/// A recursive-descent JSON parser over UTF-8 bytes; every method returns nil on bad input.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The first failure noted (the innermost); set only on bad input.
    var failure: (offset: Int, reason: String)?
    /// Deeper nesting is refused rather than risking the stack.
    static let maxDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func document() -> JSONValue? {
        // A UTF-8 byte order mark is tolerated, as Foundation's decoder does.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        guard let value = value(depth: 0) else { return nil }
        skipSpace()
        return position == bytes.count ? value : fail("unexpected \(found) after the top-level value")
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Notes why parsing stops here (unless a deeper failure was noted) and returns nil.
    private mutating func fail<T>(_ reason: String, at offset: Int? = nil) -> T? {
        if failure == nil { failure = (offset ?? position, reason) }
        return nil
    }

    /// What the parser found at the current position, for messages.
    private var found: String {
        guard let byte = current else { return "the end of the file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(format2: byte)
    }

    /// Walks `path` from the top of the document; see `JSONValue.offsets(of:in:)`.
    mutating func locate(_ path: [JSONPathStep]) -> (key: Int?, value: Int)? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        var keyOffset: Int?
        for step in path {
            skipSpace()
            switch step {
            case .key(let wanted):
                guard current == UInt8(ascii: "{") else { return nil }
                position += 1
                var hit: (key: Int, value: Int)?
                while true {
                    skipSpace()
                    if current == UInt8(ascii: "}") { break }
                    let keyStart = position
                    guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipSpace()
                    if key == wanted { hit = (keyStart, position) }
                    guard value(depth: 1) != nil else { return nil }
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { break }
                    position += 1
                }
                guard let hit else { return nil }
                keyOffset = hit.key
                position = hit.value
            case .index(let wanted):
                guard current == UInt8(ascii: "[") else { return nil }
                position += 1
                for _ in 0..<wanted {
                    guard value(depth: 1) != nil else { return nil }
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { return nil }
                    position += 1
                }
                skipSpace()
                if current == UInt8(ascii: "]") { return nil }
                keyOffset = nil
            }
        }
        skipSpace()
        return (keyOffset, position)
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
        position += count
        return true
    }

    private mutating func value(depth: Int) -> JSONValue? {
        guard depth < Self.maxDepth else { return fail("nested deeper than \(Self.maxDepth) levels") }
        skipSpace()
        guard let byte = current else { return fail("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"):
            return literal("true") ? .bool(true) : fail("expected a value, found \(found)")
        case UInt8(ascii: "f"):
            return literal("false") ? .bool(false) : fail("expected a value, found \(found)")
        case UInt8(ascii: "n"): return literal("null") ? .null : fail("expected a value, found \(found)")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return fail("expected a value, found \(found)")
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        var members: [String: JSONValue] = [:]
        let closed: Void? = sequence(closedBy: UInt8(ascii: "}"), in: "an object") { parser in
            parser.skipSpace()
            guard parser.current == UInt8(ascii: "\"") else {
                return parser.fail("expected a key in double quotes, found \(parser.found)")
            }
            guard let key = parser.string() else { return nil }
            parser.skipSpace()
            guard parser.current == UInt8(ascii: ":") else {
                return parser.fail("expected ':' after the key, found \(parser.found)")
            }
            parser.position += 1
            guard let member = parser.value(depth: depth + 1) else { return nil }
            members[key] = member
            return ()
        }
        return closed.map { .object(members) }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        var elements: [JSONValue] = []
        let closed: Void? = sequence(closedBy: UInt8(ascii: "]"), in: "an array") { parser in
            guard let element = parser.value(depth: depth + 1) else { return nil }
            elements.append(element)
            return ()
        }
        return closed.map { .array(elements) }
    }

    /// What objects and arrays share, from the opening bracket on: nothing when `close` comes
    /// first, else `element` (which reads one member or element; nil on an error it reported),
    /// then `,` and the next, or `close`. Nil on an error, already reported.
    private mutating func sequence(
        closedBy close: UInt8, in kind: String, _ element: (inout Self) -> Void?
    ) -> Void? {
        position += 1
        skipSpace()
        if current == close {
            position += 1
            return ()
        }
        while true {
            guard element(&self) != nil else { return nil }
            skipSpace()
            switch current {
            case UInt8(ascii: ",")?: position += 1
            case close?:
                position += 1
                return ()
            default:
                let bracket = Character(Unicode.Scalar(close))
                return fail("expected ',' or '\(bracket)' in \(kind), found \(found)")
            }
        }
    }

    /// A string starting at the opening quote; nil on bad escapes, control characters or bad UTF-8.
    private mutating func string() -> String? {
        position += 1
        let start = position
        // Fast path: no escapes.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            if byte < 0x20 {
                return fail("a control character in a string (write it as an escape such as \\n)")
            }
            position += 1
        }
        guard let stop = current else { return fail("the string is not closed", at: start - 1) }
        var utf8 = Array(bytes[start..<position])
        if stop == UInt8(ascii: "\\") {
            while true {
                guard let byte = current else { return fail("the string is not closed", at: start - 1) }
                position += 1
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 {
                    return fail(
                        "a control character in a string (write it as an escape such as \\n)",
                        at: position - 1)
                }
                guard byte == UInt8(ascii: "\\") else {
                    utf8.append(byte)
                    continue
                }
                guard let escape = current else { return fail("the string is not closed", at: start - 1) }
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    let escapeStart = position - 2
                    let badEscape = "a \\u escape needs four hex digits and a valid code point"
                    guard var scalar = hex4() else { return fail(badEscape, at: escapeStart) }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else {
                            return fail(
                                "a high surrogate \\u escape without its low surrogate", at: escapeStart)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        return fail(badEscape, at: escapeStart)
                    }
                    utf8.append(contentsOf: String(Character(unicode)).utf8)
                default: return fail("an unknown escape in a string", at: position - 2)
                }
            }
        } else {
            position += 1
        }
        if let text = String(validating: utf8, as: UTF8.self) { return text }
        return fail("the string is not valid UTF-8", at: start - 1)
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; integral values that fit are `.int`.
    private mutating func number() -> JSONValue? {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                parser.position += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let firstDigit = current
        let integerDigits = digits(&self)
        guard integerDigits > 0, !(firstDigit == UInt8(ascii: "0") && integerDigits > 1) else {
            return fail("not a valid number (digits, no leading zeros)", at: start)
        }
        var integral = true
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else {
                return fail("not a valid number: digits must follow '.'", at: start)
            }
            integral = false
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else {
                return fail("not a valid number: digits must follow the exponent", at: start)
            }
            integral = false
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else {
            return fail("the number is out of range", at: start)
        }
        if double == double.rounded(), let int = Int(exactly: double) { return .int(int) }
        return .double(double)
    }
}
