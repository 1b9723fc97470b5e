// LocaleName: the check every caller-supplied locale name passes (ListActivities' `locale`, RegisterActivity's `names` keys).

/// A POSIX locale name such as `de`, `pt_BR` or `sr_RS.UTF-8@latin`, as a caller may send it.
///
/// Locale names come from callers and become cache keys and record keys, so they are bounded
/// once here: at most `maxLength` bytes of letters, digits and `_-@.`.
public enum LocaleName {
    /// The longest locale name accepted (API.md, Limits).
    public static let maxLength = 64

    /// Checks `name`; `what` names the argument in the message (e.g. "ListActivities: option 'locale'").
    /// - Throws: `.invalidArgument` when it is empty, longer than `maxLength` bytes or holds
    ///   another character.
    public static func validate(_ name: String, what: String) throws(ActivityError) {
        guard !name.isEmpty, name.utf8.count <= maxLength, name.utf8.allSatisfy(isLocaleByte) else {
            throw .invalidArgument(
                "\(what) '\(HostName.printable(String(name.prefix(40))))' is not a locale name such as 'de' or 'pt_BR' (at most \(maxLength) letters, digits and _-@.)"
            )
        }
    }

    private static func isLocaleByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || "_-@.".utf8.contains(byte)
    }
}
