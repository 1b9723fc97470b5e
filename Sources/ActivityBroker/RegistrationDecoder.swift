// Turns a `RegisterActivity` record into a domain `Activity` served by the caller.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// Decodes the `a{sv}` of `RegisterActivity` (API.md §3): keys are checked against an
/// allow-list with types; `id`, `name`, `category` and `object_path` are required.
enum RegistrationDecoder {
    private static let method = Broker1.registerActivity.name.rawValue
    private static let schema = OptionSchema(method: method, types: RegistrationKey.types)
    private static let matchSchema = OptionSchema(
        method: "\(method): \(RegistrationKey.match)", types: RegistrationKey.matchTypes)

    /// At most this many entries in `names` (API.md, Limits).
    static let maxNames = 128
    /// At most this many scheme × host pairs in `match` (API.md, Limits).
    static let maxMatchPairs = 256
    /// At most this many UTF-8 bytes in the strings of one record together (keys of `names`
    /// included). Each string has a bound of its own, but a record is kept for its connection's
    /// life, 256 times over, and `ListActivities`, `Explain` and `NotApplicable` walk or join its
    /// lists: 1024 path prefixes of 4 KiB alone would be 4 MiB. 256 KiB still holds 128 names of
    /// the longest length.
    static let maxRecordBytes = 256 * 1024

    static func decode(_ record: [String: Value], owner: String) throws(ActivityError) -> Activity {
        let fields = try schema.validate(record)
        func required(_ key: String) throws(ActivityError) -> Value {
            guard let value = fields[key] else {
                throw .invalidArgument("RegisterActivity: '\(key)' is required")
            }
            return value
        }
        let id = try ActivityID(required(RegistrationKey.id).string ?? "")
        let name = try required(RegistrationKey.name).string ?? ""
        guard !name.isEmpty else { throw .invalidArgument("RegisterActivity: 'name' must not be empty") }
        // The manifest's limits hold here too: every client receives these strings.
        guard name.utf8.count <= Manifest.maxNameLength else {
            throw .invalidArgument("RegisterActivity: 'name' is longer than \(Manifest.maxNameLength) bytes")
        }
        let names = fields[RegistrationKey.names]?.stringDict ?? [:]
        guard names.count <= maxNames else {
            throw .limitExceeded("RegisterActivity: 'names' has \(names.count) entries; at most \(maxNames) are allowed")
        }
        for (locale, localized) in names {
            try LocaleName.validate(locale, what: "RegisterActivity: 'names' key")
            guard !localized.isEmpty, localized.utf8.count <= Manifest.maxNameLength else {
                throw .invalidArgument(
                    "RegisterActivity: 'names.\(locale)' must be 1 to \(Manifest.maxNameLength) bytes")
            }
        }
        let icon = fields[RegistrationKey.icon]?.string ?? ""
        guard icon.utf8.count <= 4096, icon.hasPrefix("/") || !icon.contains("/") else {
            throw .invalidArgument("RegisterActivity: 'icon' must be an icon name or an absolute path")
        }
        let categoryName = try required(RegistrationKey.category).string ?? ""
        guard let category = ActivityCategory(rawValue: categoryName) else {
            throw .invalidArgument("RegisterActivity: 'category' must be 'share' or 'action', got '\(categoryName)'")
        }
        let objectPath = try required(RegistrationKey.objectPath).objectPath!
        guard objectPath.rawValue.utf8.count <= Manifest.maxObjectPathLength else {
            throw .invalidArgument(
                "RegisterActivity: 'object_path' is \(objectPath.rawValue.utf8.count) bytes long; at most \(Manifest.maxObjectPathLength) are allowed"
            )
        }
        let matchFields = try matchSchema.validate(fields[RegistrationKey.match]?.vardict ?? [:])
        let match = try decodeMatch(matchFields)
        let visibilityName = fields[RegistrationKey.visibility]?.string ?? ActivityVisibility.others.rawValue
        guard let visibility = ActivityVisibility(rawValue: visibilityName) else {
            throw .invalidArgument(
                "RegisterActivity: 'visibility' must be 'others' or 'owner', got '\(visibilityName.prefix(40))'")
        }
        // Every string kept, as given; the lists' entries are already bounded one by one.
        let lists = [RegistrationKey.schemes, RegistrationKey.hosts, RegistrationKey.pathPrefixes]
            .flatMap { matchFields[$0]?.stringArray ?? [] }
        let bytes =
            [id.rawValue, name, icon, objectPath.rawValue].reduce(0) { $0 + $1.utf8.count }
            + names.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            + lists.reduce(0) { $0 + $1.utf8.count }
        guard bytes <= maxRecordBytes else {
            throw .invalidArgument(
                "RegisterActivity: the record's strings come to \(bytes) bytes; at most \(maxRecordBytes) are allowed"
            )
        }
        return Activity(
            id: id, name: name, names: names,
            icon: icon, category: category, origin: .dbus,
            match: match, requires: Requirements(executables: [], dbusNames: []),
            perform: .provider(owner: owner, objectPath: objectPath.rawValue),
            priority: Int(fields[RegistrationKey.priority]?.int32 ?? 0), owner: owner, visibility: visibility)
    }

    /// `match`, its keys already checked against the schema.
    private static func decodeMatch(_ fields: [String: Value]) throws(ActivityError)
        -> ActivityKit.MatchRule
    {
        let schemes = fields[RegistrationKey.schemes]?.stringArray
        let hosts = fields[RegistrationKey.hosts]?.stringArray
        // Each scheme × host pair is an entry of the match index: bound the product, not only
        // each list, or one call costs hundreds of MiB.
        let pairs = max(schemes?.count ?? 1, 1) * max(hosts?.count ?? 1, 1)
        guard pairs <= maxMatchPairs else {
            throw .limitExceeded(
                "RegisterActivity: 'match' has \(schemes?.count ?? 0) schemes × \(hosts?.count ?? 0) hosts = \(pairs) pairs; at most \(maxMatchPairs) are allowed"
            )
        }
        let pathPrefixes = fields[RegistrationKey.pathPrefixes]?.stringArray
        // MatchRule bounds the count too, as a manifest's mistake (InvalidArgument); for a
        // caller it is a count used up, like the pairs above.
        if let pathPrefixes, pathPrefixes.count > ActivityKit.MatchRule.maxEntries {
            throw .limitExceeded(
                "RegisterActivity: 'match.path_prefixes' has \(pathPrefixes.count) entries; at most \(ActivityKit.MatchRule.maxEntries) are allowed"
            )
        }
        // Its messages start with the key and index ("path_prefixes[3]: …").
        return try ActivityKit.MatchRule(schemes: schemes, hosts: hosts, pathPrefixes: pathPrefixes)
    }
}
