// ASCIISet: a set of ASCII bytes as a 128-bit mask, for the URL parser's per-byte checks.

/// A set of ASCII bytes, tested with one shift and mask. The URL paths asked
/// `"-._~…".utf8.contains(b)` for every byte of every URL, a walk over the literal each time;
/// `ListActivities` parses each offered `open` activity's expansion, so it adds up.
struct ASCIISet: Sendable {
    private let low: UInt64
    private let high: UInt64

    /// The set of the (ASCII) bytes of `members`.
    init(_ members: String) {
        var low: UInt64 = 0, high: UInt64 = 0
        for b in members.utf8 {
            precondition(b < 0x80, "ASCIISet holds ASCII only")
            if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
        }
        self.low = low
        self.high = high
    }

    func contains(_ b: UInt8) -> Bool {
        b < 64 ? low & (1 << UInt64(b)) != 0 : b < 128 && high & (1 << UInt64(b - 64)) != 0
    }
}
