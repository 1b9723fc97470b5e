// ActivityInterner: shares the equal parts of many activities (icons, match rules, perform specs).

/// Replaces each part of an activity that another activity already has an equal copy of by
/// that copy, so a catalog of 10,000 manifests keeps one `{"open": "https://…{url}"}`
/// template, one `schemes: ["https"]` rule and one icon name, not 10,000 of each.
///
/// Used for one catalog read, then dropped: the table itself is not kept. Equal parts are
/// interchangeable (value types), so interning changes no activity's value: `intern(a) == a`.
public struct ActivityInterner {
    private var strings: Set<String> = []
    private var rules: Set<MatchRule> = []
    private var performs: Set<PerformSpec> = []
    private var requirements: Set<Requirements> = []

    /// An empty table.
    public init() {}

    /// `activity` with its icon, match rule, requirements and perform spec
    /// replaced by equal ones seen before (and remembered for the next).
    public mutating func intern(_ activity: Activity) -> Activity {
        var a = activity
        intern(&a)
        return a
    }

    /// Replaces the parts of `a` in place, as `intern(_:)` does: when `a` is the only value
    /// of its record (a fresh decode), the record is not copied.
    public mutating func intern(_ a: inout Activity) {
        a.icon = intern(a.icon)
        a.match = Self.intern(a.match, in: &rules)
        a.perform = Self.intern(interningNames(a.perform), in: &performs)
        if a.requires != .none { a.requires = Self.intern(a.requires, in: &requirements) }
    }

    /// `perform` with its object path interned: a bus name is usually an activity's own, the
    /// path it is called at is often the same for many (`/org/example/Share`).
    private mutating func interningNames(_ perform: PerformSpec) -> PerformSpec {
        switch perform {
        case .dbus(let name, let path): .dbus(busName: name, objectPath: intern(path))
        case .application(let name, let path): .application(busName: name, objectPath: intern(path))
        default: perform
        }
    }

    /// The copy of `s` seen first. Strings of up to 15 UTF-8 bytes are stored inline by Swift
    /// and cost no allocation: they are returned as they are.
    public mutating func intern(_ s: String) -> String {
        guard s.utf8.count > 15 else { return s }
        return Self.intern(s, in: &strings)
    }

    private static func intern<T: Hashable>(_ value: T, in table: inout Set<T>) -> T {
        let (inserted, member) = table.insert(value)
        return inserted ? value : member
    }
}
