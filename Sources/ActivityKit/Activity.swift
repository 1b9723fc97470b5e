// Activity: one registered activity (from a manifest, a desktop entry or a D-Bus registration).

/// An activity: what it is called, what it applies to, what it needs and how it is performed.
///
/// A value type stored as one reference to a record of its `ActivityFields` (copy on write):
/// a registry of 10,000 activities keeps one allocation per activity for its fields and its
/// localized names (packed bytes after the fields, `LocalizedNames`' format), copies share
/// it. The fields read and write as `activity.id`, `activity.match`, … through
/// `@dynamicMemberLookup`; a write copies the record first when another value shares it.
///
/// `@unchecked Sendable`: the record (a `ManagedBuffer`, which the standard library marks
/// non-`Sendable`) is written only while this value is its sole reference, checked by
/// `isKnownUniquelyReferenced` before every write, so a record other threads may see is
/// never written.
@dynamicMemberLookup
public struct Activity: Hashable, @unchecked Sendable {
    @usableFromInline var record: Record

    /// Builds an activity.
    public init(
        id: ActivityID, name: String, names: [String: String] = [:], icon: String = "",
        category: ActivityCategory, origin: ActivityOrigin, match: MatchRule = .httpAny,
        requires: Requirements = .none, perform: PerformSpec, priority: Int = 0, owner: String? = nil,
        defaultHandlerAlias: Bool = false, visibility: ActivityVisibility = .others
    ) {
        record = Record.make(
            ActivityFields(
                id: id, name: name, icon: icon, match: match, requires: requires, perform: perform,
                priority: priority, owner: owner, namesByteCount: 0, category: category, origin: origin,
                defaultHandlerAlias: defaultHandlerAlias, visibility: visibility),
            names: LocalizedNames(names))
    }

    /// A field of the activity (see `ActivityFields`).
    @inlinable
    public subscript<T>(dynamicMember field: WritableKeyPath<ActivityFields, T>) -> T {
        get { record.header[keyPath: field] }
        set {
            if !isKnownUniquelyReferenced(&record) { record = record.copy() }
            // The names' byte count describes this record's own tail: a write of the whole
            // fields (`\.self`) or of that field must not make the record read past it.
            let namesByteCount = record.header.namesByteCount
            record.header[keyPath: field] = newValue
            record.header.namesByteCount = namesByteCount
        }
    }

    /// Localized names, packed (`LocalizedNames`); `names` is the same as a dictionary.
    public var localizedNames: LocalizedNames {
        get { LocalizedNames(packed: record.withNames { Array($0) }) }
        set { record = Record.make(record.header, names: newValue) }
    }

    /// Localized names: locale (`de`, `de_DE`, …) → name.
    public var names: [String: String] {
        get { localizedNames.dictionary }
        set { localizedNames = LocalizedNames(newValue) }
    }

    public static func == (a: Activity, b: Activity) -> Bool {
        a.record === b.record
            || (a.record.header == b.record.header
                && a.record.withNames { x in b.record.withNames { y in x.elementsEqual(y) } })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(record.header)
        record.withNames { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The name for a POSIX or BCP 47 locale, tried like gettext: `sr_RS.UTF-8@latin` tries `sr_RS@latin`,
    /// `sr@latin`, `sr_RS`, `sr`, then `name` (the codeset is dropped; `-` and `_` are interchangeable).
    /// Builds the locale's `LocaleCandidates` on each call: for many activities and one
    /// locale, build them once and use `localizedName(in:)`.
    public func localizedName(for locale: String?) -> String {
        localizedName(in: LocaleCandidates(locale))
    }

    /// The name under the first of `candidates` this activity has a non-empty name for, else `name`.
    public func localizedName(in candidates: LocaleCandidates) -> String {
        guard !candidates.isEmpty, record.header.namesByteCount > 0 else { return self.name }
        return record.withNames { names in
            for key in candidates.keys {
                if let n = LocalizedNames.name(for: key, in: names), !n.isEmpty { return n }
            }
            return self.name
        }
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

extension Activity {
    /// The fields of one activity and its packed localized names in one allocation (the
    /// fields are the buffer's header, the names its `namesByteCount` tail bytes), shared by
    /// copies until one of them changes.
    ///
    /// Written only through `Activity`'s setter while exactly one `Activity` value refers to it
    /// (see `Activity`'s `Sendable`); its names are written only while it is made.
    @usableFromInline
    final class Record: ManagedBuffer<ActivityFields, UInt8> {
        /// A record of `fields` and `names`.
        static func make(_ fields: ActivityFields, names: LocalizedNames) -> Record {
            names.withPackedBytes { make(fields, packed: $0) }
        }

        private static func make(_ fields: ActivityFields, packed: UnsafeBufferPointer<UInt8>) -> Record {
            var fields = fields
            fields.namesByteCount = UInt32(packed.count)
            let record = unsafeDowncast(
                create(minimumCapacity: packed.count) { _ in fields }, to: Record.self)
            if let source = packed.baseAddress {
                record.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: packed.count) }
            }
            return record
        }

        /// An equal record of its own (for a write while another value shares this one).
        @usableFromInline func copy() -> Record {
            withNames { Record.make(header, packed: $0) }
        }

        /// Calls `body` with the packed localized names.
        func withNames<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            let count = Int(header.namesByteCount)
            return try withUnsafeMutablePointerToElements {
                try body(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }
}
