// The marshalled length of a message body, counted by the encoder as it appends each value.

/// A running offset into a message body as the D-Bus wire format lays it out (alignment
/// padding included), advanced by `ValueCoding.append` for each value it hands libdbus.
///
/// Why count rather than ask libdbus: its public API tells a message's size only by
/// marshalling a copy of it (`dbus_message_marshal`); the body's length and header are
/// private. The encoder already visits every value, so counting there costs a few additions a
/// value. The body starts 8-aligned in the message, so alignment relative to the body's start
/// is alignment on the wire. `EncodedReplyTests` checks the count against
/// `dbus_message_marshal` for every kind of value and each padding case.
struct WireLength {
    /// The bytes counted so far: the body's length once every value is appended.
    private(set) var bytes = 0

    /// Pads to a multiple of `boundary` (1, 2, 4 or 8).
    @inline(__always)
    mutating func align(_ boundary: Int) {
        bytes = (bytes + boundary - 1) & ~(boundary - 1)
    }

    /// A fixed-size basic value (byte, boolean, integers, double, unix fd index): aligned to
    /// its own size.
    @inline(__always)
    mutating func fixed(_ size: Int) {
        align(size)
        bytes += size
    }

    /// A string or object path of `count` UTF-8 bytes: a 32-bit length, the bytes, a NUL.
    @inline(__always)
    mutating func string(_ count: Int) {
        align(4)
        bytes += 4 + count + 1
    }

    /// A signature of `count` bytes (also a variant's type): a length byte, the bytes, a NUL.
    @inline(__always)
    mutating func signature(_ count: Int) {
        bytes += 1 + count + 1
    }

    /// An array's 32-bit length and the padding to its elements' `alignment`, which is there
    /// even when the array is empty.
    @inline(__always)
    mutating func arrayStart(alignment: Int) {
        align(4)
        bytes += 4
        align(alignment)
    }

    /// A struct or dictionary entry: 8-aligned.
    @inline(__always)
    mutating func structStart() {
        align(8)
    }

    /// The alignment of the complete type `signature` starts with.
    static func alignment(of signature: Signature) -> Int {
        switch signature.rawValue.utf8.first {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4  // b, i, u, h, s, o, a
        }
    }

    /// The length of the header libdbus gives a message made with `dbus_message_new` and no
    /// field set but the body's `signature` (which appending the body sets): the 12 fixed
    /// bytes, the fields array's length, the SIGNATURE field (code, variant type `g`, the
    /// signature), padded to 8 for the body. The header of `EncodedReply`'s template.
    static func bareHeader(signature: Signature) -> Int {
        let fixed = 12 + 4
        let count = signature.rawValue.utf8.count
        guard count > 0 else { return fixed }
        // code byte, then variant type "g" (length, 'g', NUL), then the signature itself.
        let field = 1 + 3 + (1 + count + 1)
        return (fixed + field + 7) & ~7
    }
}
