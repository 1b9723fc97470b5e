// LocalizedNames: an activity's names by locale packed into one byte buffer, not a dictionary.

/// Locale → name, packed as `[length, locale UTF-8, length, name UTF-8]…` (lengths as LEB128:
/// one byte below 128), sorted by locale.
///
/// A registry holds one of these per activity: a dictionary of three names costs a hashed
/// table plus a heap string per name (~500 bytes), this one buffer (~100 bytes, reserved for
/// its exact size, which the allocator may round up), and nothing when empty. A lookup walks a
/// handful of locales comparing bytes and makes the one `String` it returns.
public struct LocalizedNames: Hashable, Sendable {
    private var bytes: [UInt8]

    /// The names of `dictionary`.
    public init(_ dictionary: [String: String] = [:]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            dictionary.reduce(0) { sum, pair in
                sum + Self.lengthSize(pair.key.utf8.count) + pair.key.utf8.count
                    + Self.lengthSize(pair.value.utf8.count) + pair.value.utf8.count
            })
        for (locale, name) in dictionary.sorted(by: { $0.key < $1.key }) {
            Self.append(locale, to: &bytes)
            Self.append(name, to: &bytes)
        }
        self.bytes = bytes
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var count = text.utf8.count
        while count >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: count) | 0x80)
            count >>= 7
        }
        bytes.append(UInt8(count))
        bytes.append(contentsOf: text.utf8)
    }

    /// The bytes of `count` as LEB128.
    private static func lengthSize(_ count: Int) -> Int {
        var size = 1
        var rest = count >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    /// Whether there is no localized name.
    public var isEmpty: Bool { bytes.isEmpty }

    /// How many locales have a name.
    public var count: Int {
        var count = 0
        forEachPair { _, _ in count += 1 }
        return count
    }

    /// The names of `packed`, bytes in this type's format (from `withPackedBytes`).
    init(packed: [UInt8]) { bytes = packed }

    /// Calls `body` with the packed bytes (an activity's record keeps a copy of them).
    func withPackedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }

    /// The name for exactly `locale`, if any.
    public subscript(locale: String) -> String? {
        bytes.withUnsafeBufferPointer { Self.name(for: locale, in: $0) }
    }

    /// The name for exactly `locale` in `bytes` (packed in this type's format), if any.
    static func name(for locale: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var found: String?
        var key = locale
        key.withUTF8 { wanted in
            forEachPair(in: bytes) { localeRange, nameRange in
                guard found == nil, bytes[localeRange].elementsEqual(wanted) else { return }
                found = String(decoding: bytes[nameRange], as: UTF8.self)
            }
        }
        return found
    }

    /// The names as a dictionary.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        bytes.withUnsafeBufferPointer { bytes in
            Self.forEachPair(in: bytes) { localeRange, nameRange in
                result[String(decoding: bytes[localeRange], as: UTF8.self)] = String(
                    decoding: bytes[nameRange], as: UTF8.self)
            }
        }
        return result
    }

    /// Calls `body` with the byte ranges of each locale and its name, in locale order.
    private func forEachPair(_ body: (Range<Int>, Range<Int>) -> Void) {
        bytes.withUnsafeBufferPointer { Self.forEachPair(in: $0, body) }
    }

    /// Calls `body` with the byte ranges of each locale and its name in `bytes`, in locale order.
    private static func forEachPair(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>) -> Void
    ) {
        var position = 0
        func next() -> Range<Int> {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            position += length
            return (position - length)..<position
        }
        while position < bytes.count {
            let locale = next()
            body(locale, next())
        }
    }
}
