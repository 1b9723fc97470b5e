// KeyDecoder: turns terminal input bytes into keys (CSI/SS3 sequences, controls, UTF-8).

/// Decodes the bytes a terminal sends into `Key`s, keeping an incomplete tail for the next call.
///
/// Pure and I/O-free so it can be tested with byte tables. The one ambiguity of terminal input
/// is a lone ESC: the Esc key and the start of an arrow key's `ESC [ A` look the same until the
/// next byte comes. The reader therefore calls `feed` with what it read and, while `hasPending`
/// is true, waits at most `escapeTimeoutMilliseconds` for more; if nothing comes it calls
/// `flush`, which reads the pending ESC as `.escape` (an unfinished sequence becomes `.escape`
/// followed by its other bytes as keys). ESC followed by a byte that starts no sequence
/// (Alt-x) also gives `.escape`, then the byte on its own.
public struct KeyDecoder: Sendable {
    /// How long a reader should wait after an ESC before deciding it was the Esc key.
    public static let escapeTimeoutMilliseconds: Int32 = 50

    /// A CSI sequence longer than this is discarded as `.unknown` instead of buffered further.
    static let maximumSequenceLength = 32

    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes are held back waiting for the rest of a sequence or character.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was pending; keeps an incomplete tail pending.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        return drain(atEnd: false)
    }

    /// Decodes everything pending as if no more bytes will come (after the ESC timeout or EOF).
    public mutating func flush() -> [Key] {
        drain(atEnd: true)
    }

    /// Decodes a complete byte string: `feed` then `flush`.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flush()
    }

    private mutating func drain(atEnd: Bool) -> [Key] {
        var keys: [Key] = []
        var start = 0
        while start < pending.count {
            guard let (key, used) = Self.decodeOne(pending[start...], atEnd: atEnd) else { break }
            keys.append(key)
            start += used
        }
        pending.removeFirst(start)
        return keys
    }

    /// Decodes the first key of `bytes` (non-empty); nil when more bytes are needed to know.
    static func decodeOne(_ bytes: ArraySlice<UInt8>, atEnd: Bool) -> (Key, Int)? {
        let b0 = bytes[bytes.startIndex]
        switch b0 {
        case 0x1B: return decodeEscape(bytes, atEnd: atEnd)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x03: return (.ctrlC, 1)
        case 0x04: return (.ctrlD, 1)
        case 0x00..<0x20: return (.control(b0), 1)
        case 0x20..<0x7F: return (.character(Character(Unicode.Scalar(b0))), 1)
        default: return decodeUTF8(bytes, atEnd: atEnd)
        }
    }

    private static func decodeEscape(_ bytes: ArraySlice<UInt8>, atEnd: Bool) -> (Key, Int)? {
        let s = bytes.startIndex
        guard bytes.count >= 2 else { return atEnd ? (.escape, 1) : nil }
        switch bytes[s + 1] {
        case UInt8(ascii: "["):
            var i = s + 2
            while i < bytes.endIndex, (0x30...0x3F).contains(bytes[i]) { i += 1 }
            while i < bytes.endIndex, (0x20...0x2F).contains(bytes[i]) { i += 1 }
            if i - s > maximumSequenceLength { return (.unknown(Array(bytes[s..<i])), i - s) }
            guard i < bytes.endIndex else { return atEnd ? (.escape, 1) : nil }
            let final = bytes[i]
            guard (0x40...0x7E).contains(final) else {
                // A byte that cannot be in a sequence: drop what we have, decode it on its own.
                return (.unknown(Array(bytes[s..<i])), i - s)
            }
            let whole = Array(bytes[s...i])
            return (csiKey(parameters: Array(bytes[(s + 2)..<i]), final: final) ?? .unknown(whole), whole.count)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return atEnd ? (.escape, 1) : nil }
            let key: Key
            switch bytes[s + 2] {
            case UInt8(ascii: "A"): key = .up
            case UInt8(ascii: "B"): key = .down
            case UInt8(ascii: "C"): key = .right
            case UInt8(ascii: "D"): key = .left
            case UInt8(ascii: "H"): key = .home
            case UInt8(ascii: "F"): key = .end
            case UInt8(ascii: "M"): key = .enter
            default: key = .unknown(Array(bytes[s...(s + 2)]))
            }
            return (key, 3)
        default:
            return (.escape, 1)
        }
    }

    /// The key of `ESC [ parameters final`, or nil when it means nothing to us.
    private static func csiKey(parameters: [UInt8], final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up  // modifiers (ESC [ 1 ; 5 A) are ignored
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            let first = parameters.prefix { $0 != UInt8(ascii: ";") }
            guard !first.isEmpty, first.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: first, as: UTF8.self))
            else { return nil }
            switch number {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>, atEnd: Bool) -> (Key, Int)? {
        let s = bytes.startIndex
        let lead = bytes[s]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.unknown([lead]), 1)
        }
        let available = min(length, bytes.count)
        for i in 1..<available where bytes[s + i] & 0xC0 != 0x80 {
            return (.unknown([lead]), 1)
        }
        guard available == length else { return atEnd ? (.unknown([lead]), 1) : nil }
        var iterator = bytes[s..<(s + length)].makeIterator()
        var utf8 = UTF8()
        if case .scalarValue(let scalar) = utf8.decode(&iterator) {
            return (.character(Character(scalar)), length)
        }
        // Overlong forms and surrogates pass the shape check above but are not valid.
        return (.unknown([lead]), 1)
    }
}
