// LocalizedNames: an activity's names by locale as one flat sorted array, not a dictionary.

/// Locale → name, stored as `[locale0, name0, locale1, name1, …]` sorted by locale.
///
/// A registry holds one of these per activity: a dictionary costs a hashed table of its own
/// (~200 bytes for three names), a flat array one small buffer, and none when empty. Lookups
/// are a binary search over a handful of locales, cheaper than hashing the key.
public struct LocalizedNames: Hashable, Sendable {
    private var pairs: [String]

    /// The names of `dictionary`.
    public init(_ dictionary: [String: String] = [:]) {
        var pairs: [String] = []
        pairs.reserveCapacity(dictionary.count * 2)
        for (locale, name) in dictionary.sorted(by: { $0.key < $1.key }) {
            pairs.append(locale)
            pairs.append(name)
        }
        self.pairs = pairs
    }

    /// Whether there is no localized name.
    public var isEmpty: Bool { pairs.isEmpty }

    /// How many locales have a name.
    public var count: Int { pairs.count / 2 }

    /// The name for exactly `locale`, if any.
    public subscript(locale: String) -> String? {
        var low = 0
        var high = pairs.count / 2
        while low < high {
            let middle = (low + high) / 2
            let key = pairs[middle * 2]
            if key == locale { return pairs[middle * 2 + 1] }
            if key < locale { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The names as a dictionary.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in stride(from: 0, to: pairs.count, by: 2) { result[pairs[index]] = pairs[index + 1] }
        return result
    }

    /// The same names with each string replaced by `intern`'s answer (for sharing equal strings).
    func mapStrings(_ intern: (String) -> String) -> LocalizedNames {
        var copy = self
        copy.pairs = pairs.map(intern)
        return copy
    }
}
