// Activity: one registered activity (from a manifest, a desktop entry or a D-Bus registration).

/// An activity: what it is called, what it applies to, what it needs and how it is performed.
///
/// A value type stored as one reference to a `Record` (copy on write): a registry of 10,000
/// activities keeps one allocation per activity for its fields, copies share it, and the
/// localized names are one packed buffer, not a dictionary per activity (`LocalizedNames`).
public struct Activity: Hashable, Sendable {
    private var record: Record

    /// The unique id.
    public var id: ActivityID {
        get { record.id }
        set { unique().id = newValue }
    }
    /// The display name when no localized one fits.
    public var name: String {
        get { record.name }
        set { unique().name = newValue }
    }
    /// Localized names: locale (`de`, `de_DE`, …) → name.
    public var names: [String: String] {
        get { record.names.dictionary }
        set { unique().names = LocalizedNames(newValue) }
    }
    /// The localized names as stored, for lookups without building a dictionary.
    public var localizedNames: LocalizedNames {
        get { record.names }
        set { unique().names = newValue }
    }
    /// A freedesktop icon name or an absolute path; empty when none was given (clients show a generic icon).
    public var icon: String {
        get { record.icon }
        set { unique().icon = newValue }
    }
    /// share or action.
    public var category: ActivityCategory {
        get { record.category }
        set { unique().category = newValue }
    }
    /// Where it came from.
    public var origin: ActivityOrigin {
        get { record.origin }
        set { unique().origin = newValue }
    }
    /// Which URLs it applies to.
    public var match: MatchRule {
        get { record.match }
        set { unique().match = newValue }
    }
    /// What must exist on the machine.
    public var requires: Requirements {
        get { record.requires }
        set { unique().requires = newValue }
    }
    /// How it is performed.
    public var perform: PerformSpec {
        get { record.perform }
        set { unique().perform = newValue }
    }
    /// Ranking tie-breaker, higher first.
    public var priority: Int {
        get { record.priority }
        set { unique().priority = newValue }
    }
    /// The unique bus name of the registering connection, for `.dbus` activities; `nil` otherwise.
    public var owner: String? {
        get { record.owner }
        set { unique().owner = newValue }
    }
    /// Manifest `default_handler_alias`: for a URL it takes the name of the default
    /// application of the URL's scheme and stands in for that application's own entry
    /// (`DefaultHandlerAliasing`).
    public var defaultHandlerAlias: Bool {
        get { record.defaultHandlerAlias }
        set { unique().defaultHandlerAlias = newValue }
    }
    /// Who it is offered to (`owner` only for registrations that ask for it).
    public var visibility: ActivityVisibility {
        get { record.visibility }
        set { unique().visibility = newValue }
    }

    /// Builds an activity.
    public init(
        id: ActivityID, name: String, names: [String: String] = [:], icon: String = "",
        category: ActivityCategory, origin: ActivityOrigin, match: MatchRule = .httpAny,
        requires: Requirements = .none, perform: PerformSpec, priority: Int = 0, owner: String? = nil,
        defaultHandlerAlias: Bool = false, visibility: ActivityVisibility = .others
    ) {
        record = Record(
            id: id, name: name, names: LocalizedNames(names), icon: icon, category: category, origin: origin,
            match: match, requires: requires, perform: perform, priority: priority, owner: owner,
            defaultHandlerAlias: defaultHandlerAlias, visibility: visibility)
    }

    /// The record, copied first when another activity value shares it.
    private mutating func unique() -> Record {
        if !isKnownUniquelyReferenced(&record) { record = record.copy() }
        return record
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
        let names = record.names
        guard let locale, !names.isEmpty else { return name }
        var base = Substring(locale)
        var modifier: Substring? = nil
        if let at = base.firstIndex(of: "@") {
            modifier = base[base.index(after: at)...]
            base = base[..<at]
        }
        if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
        if base.isEmpty || base == "C" || base == "POSIX" { return name }
        let underscored = base.replacingOccurrences("-", "_")
        var plain = [underscored, underscored.replacingOccurrences("_", "-")]
        if let sep = underscored.firstIndex(of: "_") { plain.append(String(underscored[..<sep])) }
        var tries: [String] = []
        if let modifier, !modifier.isEmpty { tries = plain.map { "\($0)@\(modifier)" } }
        tries += plain
        for t in tries {
            if let n = names[t], !n.isEmpty { return n }
        }
        return name
    }

    /// Whether it can run in `env` (requirements, its program, its candidates).
    public func availability(in env: some Environment) -> Availability {
        Availability.check(requires: requires, perform: perform, in: env)
    }

    /// The well-known bus names its availability asks about (`requires.dbus_names` and a
    /// `dbus` or `application` perform's name): a change of any other name cannot change it.
    public var busNameDependencies: Set<String> {
        var names = Set(requires.dbusNames)
        switch perform {
        case .dbus(let name, _), .application(let name, _): names.insert(name)
        default: break
        }
        return names
    }

    /// Whether its availability asks about programs on PATH.
    public var dependsOnPrograms: Bool {
        if !requires.executables.isEmpty { return true }
        switch perform {
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
    /// `@unchecked Sendable`: a record is only written through `Activity.unique()`, that is
    /// while exactly one `Activity` value refers to it, so a record that is shared (and may be
    /// seen by other threads) is never written.
    fileprivate final class Record: @unchecked Sendable {
        var id: ActivityID
        var name: String
        var names: LocalizedNames
        var icon: String
        var category: ActivityCategory
        var origin: ActivityOrigin
        var match: MatchRule
        var requires: Requirements
        var perform: PerformSpec
        var priority: Int
        var owner: String?
        var defaultHandlerAlias: Bool
        var visibility: ActivityVisibility

        init(
            id: ActivityID, name: String, names: LocalizedNames, icon: String, category: ActivityCategory,
            origin: ActivityOrigin, match: MatchRule, requires: Requirements, perform: PerformSpec, priority: Int,
            owner: String?, defaultHandlerAlias: Bool, visibility: ActivityVisibility
        ) {
            self.id = id
            self.name = name
            self.names = names
            self.icon = icon
            self.category = category
            self.origin = origin
            self.match = match
            self.requires = requires
            self.perform = perform
            self.priority = priority
            self.owner = owner
            self.defaultHandlerAlias = defaultHandlerAlias
            self.visibility = visibility
        }

        func copy() -> Record {
            Record(
                id: id, name: name, names: names, icon: icon, category: category, origin: origin, match: match,
                requires: requires, perform: perform, priority: priority, owner: owner,
                defaultHandlerAlias: defaultHandlerAlias, visibility: visibility)
        }

        /// Every field, for equality and hashing.
        var fields: Fields {
            Fields(
                id: id, name: name, names: names, icon: icon, category: category, origin: origin, match: match,
                requires: requires, perform: perform, priority: priority, owner: owner,
                defaultHandlerAlias: defaultHandlerAlias, visibility: visibility)
        }
    }

    /// The fields as a value, so equality and hashing are the synthesized ones of a struct.
    fileprivate struct Fields: Hashable {
        var id: ActivityID
        var name: String
        var names: LocalizedNames
        var icon: String
        var category: ActivityCategory
        var origin: ActivityOrigin
        var match: MatchRule
        var requires: Requirements
        var perform: PerformSpec
        var priority: Int
        var owner: String?
        var defaultHandlerAlias: Bool
        var visibility: ActivityVisibility
    }
}
