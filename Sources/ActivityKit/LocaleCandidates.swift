// LocaleCandidates: the names a locale's localized name is looked up under, most specific first.

/// The keys `Activity.localizedName(in:)` tries for one POSIX or BCP 47 locale, in order, as
/// gettext tries them: `sr_RS.UTF-8@latin` gives `sr_RS@latin`, `sr-RS@latin`, `sr@latin`,
/// `sr_RS`, `sr-RS`, `sr` (the codeset is dropped; `-` and `_` are interchangeable). None for
/// no locale, an empty one, `C` or `POSIX`: the activity's plain `name` applies.
///
/// Why a value of its own: the list depends only on the locale string, so a caller naming many
/// activities for one locale (a ranking, a set of records) builds it once rather than once
/// per activity.
public struct LocaleCandidates: Hashable, Sendable {
    /// The keys, most specific first; empty when no localized name applies.
    public let keys: [String]

    /// The candidates for `locale` (nil: none).
    public init(_ locale: String?) {
        keys = locale.map(Self.keys(for:)) ?? []
    }

    /// Whether no localized name applies (the activity's `name` does).
    public var isEmpty: Bool { keys.isEmpty }

    private static func keys(for locale: String) -> [String] {
        var base = Substring(locale)
        var modifier: Substring? = nil
        if let at = base.firstIndex(of: "@") {
            modifier = base[base.index(after: at)...]
            base = base[..<at]
        }
        if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
        if base.isEmpty || base == "C" || base == "POSIX" { return [] }
        let underscored = base.replacingOccurrences("-", "_")
        var plain = [underscored]
        // Without a separator the hyphenated form is the same key: trying it twice finds nothing new.
        let hyphenated = underscored.replacingOccurrences("_", "-")
        if hyphenated != underscored { plain.append(hyphenated) }
        if let sep = underscored.firstIndex(of: "_") { plain.append(String(underscored[..<sep])) }
        var keys: [String] = []
        if let modifier, !modifier.isEmpty { keys = plain.map { "\($0)@\(modifier)" } }
        keys += plain
        return keys
    }
}

extension StringProtocol {
    fileprivate func replacingOccurrences(_ a: Character, _ b: Character) -> String {
        String(map { $0 == a ? b : $0 })
    }
}
