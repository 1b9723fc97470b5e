// Activity: one registered activity (from a manifest, a desktop entry or a D-Bus registration).

/// An activity: what it is called, what it applies to, what it needs and how it is performed.
///
/// A value type stored as one reference to a record of its `ActivityFields` (copy on write):
/// a registry of 10,000 activities keeps one allocation per activity for its fields, copies
/// share it, and the localized names are one packed buffer, not a dictionary per activity
/// (`LocalizedNames`). The fields read and write as `activity.id`, `activity.match`, … through
/// `@dynamicMemberLookup`; a write copies the record first when another value shares it.
@dynamicMemberLookup
public struct Activity: Hashable, Sendable {
    @usableFromInline var record: Record

    /// Builds an activity.
    public init(
        id: ActivityID, name: String, names: [String: String] = [:], icon: String = "",
        category: ActivityCategory, origin: ActivityOrigin, match: MatchRule = .httpAny,
        requires: Requirements = .none, perform: PerformSpec, priority: Int = 0, owner: String? = nil,
        defaultHandlerAlias: Bool = false, visibility: ActivityVisibility = .others
    ) {
        record = Record(
            ActivityFields(
                id: id, name: name, localizedNames: LocalizedNames(names), icon: icon, match: match,
                requires: requires, perform: perform, priority: priority, owner: owner, category: category,
                origin: origin, defaultHandlerAlias: defaultHandlerAlias, visibility: visibility))
    }

    /// A field of the activity (see `ActivityFields`).
    @inlinable
    public subscript<T>(dynamicMember field: WritableKeyPath<ActivityFields, T>) -> T {
        get { record.fields[keyPath: field] }
        set {
            if !isKnownUniquelyReferenced(&record) { record = Record(record.fields) }
            record.fields[keyPath: field] = newValue
        }
    }

    public static func == (a: Activity, b: Activity) -> Bool {
        a.record === b.record || a.record.fields == b.record.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(record.fields)
    }

    /// The name for a POSIX or BCP 47 locale, tried like gettext: `sr_RS.UTF-8@latin` tries `sr_RS@latin`,
    /// `sr@latin`, `sr_RS`, `sr`, then `name` (the codeset is dropped; `-` and `_` are interchangeable).
    public func localizedName(for locale: String?) -> String {
        let names = record.fields.localizedNames
        guard let locale, !names.isEmpty else { return self.name }
        var base = Substring(locale)
        var modifier: Substring? = nil
        if let at = base.firstIndex(of: "@") {
            modifier = base[base.index(after: at)...]
            base = base[..<at]
        }
        if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
        if base.isEmpty || base == "C" || base == "POSIX" { return self.name }
        let underscored = base.replacingOccurrences("-", "_")
        var plain = [underscored, underscored.replacingOccurrences("_", "-")]
        if let sep = underscored.firstIndex(of: "_") { plain.append(String(underscored[..<sep])) }
        var tries: [String] = []
        if let modifier, !modifier.isEmpty { tries = plain.map { "\($0)@\(modifier)" } }
        tries += plain
        for t in tries {
            if let n = names[t], !n.isEmpty { return n }
        }
        return self.name
    }

    /// Whether it can run in `env` (requirements, its program, its candidates).
    public func availability(in env: some Environment) -> Availability {
        Availability.check(requires: self.requires, perform: self.perform, in: env)
    }

    /// The well-known bus names its availability asks about (`requires.dbus_names` and a
    /// `dbus` or `application` perform's name): a change of any other name cannot change it.
    public var busNameDependencies: Set<String> {
        var names = Set(self.requires.dbusNames)
        switch self.perform {
        case .dbus(let name, _), .application(let name, _): names.insert(name)
        default: break
        }
        return names
    }

    /// Whether its availability asks about programs on PATH.
    public var dependsOnPrograms: Bool {
        if !self.requires.executables.isEmpty { return true }
        switch self.perform {
        case .exec: return true
        case .candidates(let candidates):
            return candidates.contains { if case .exec = $0.action { true } else { false } }
        default: return false
        }
    }

    /// Why `perform` (resolved by availability) would refuse `items`, or nil when it accepts
    /// them. The one check that `ListActivities`, `Explain` and `Perform` share, so an activity
    /// is offered exactly when performing it would not be refused for the items: an `open`
    /// template whose expansion is not an URL that may be opened (e.g. longer than
    /// `SharedURL.maxLength` once query-encoded).
    public static func refusal(of resolved: PerformSpec, for items: Items) -> ActivityError? {
        guard case .open(let spec) = resolved else { return nil }
        do {
            _ = try spec.url(for: items)
            return nil
        } catch {
            return error
        }
    }
}

extension StringProtocol {
    fileprivate func replacingOccurrences(_ a: Character, _ b: Character) -> String {
        String(map { $0 == a ? b : $0 })
    }
}

extension Activity {
    /// The fields of one activity in one allocation, shared by copies until one of them changes.
    ///
    /// `@unchecked Sendable`: a record is only written through `Activity`'s setter while exactly
    /// one `Activity` value refers to it (`isKnownUniquelyReferenced`), so a record that is
    /// shared (and may be seen by other threads) is never written.
    @usableFromInline
    final class Record: @unchecked Sendable {
        @usableFromInline var fields: ActivityFields

        @usableFromInline init(_ fields: ActivityFields) { self.fields = fields }
    }
}
