// ActivityID: the validated reverse-DNS id of an activity (API.md §2).

/// An activity id: 1...255 characters of `[A-Za-z0-9_.-]`, checked once at construction.
public struct ActivityID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The longest id the registry accepts.
    public static let maxLength = 255

    /// The id as given (ids are case-sensitive).
    public let rawValue: String

    /// Validates `s`.
    /// - Throws: `.invalidArgument` naming the problem (empty, too long, or the first bad character).
    public init(_ s: String) throws(ActivityError) {
        let bytes = s.utf8
        if bytes.isEmpty { throw .invalidArgument("activity id is empty") }
        for b in bytes where !ActivityID.isAllowed(b) {
            let shown =
                s.unicodeScalars.first { !($0.isASCII && ActivityID.isAllowed(UInt8($0.value))) }
                .map { String($0).debugDescription } ?? "?"
            throw .invalidArgument(
                "activity id '\(HostName.printable(String(s.prefix(64))))' contains \(shown); only A-Z, a-z, 0-9, '_', '.' and '-' are allowed"
            )
        }
        if bytes.count > ActivityID.maxLength {
            throw .invalidArgument(
                "activity id is \(bytes.count) characters long; at most \(ActivityID.maxLength) are allowed")
        }
        rawValue = s
    }

    static func isAllowed(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}
