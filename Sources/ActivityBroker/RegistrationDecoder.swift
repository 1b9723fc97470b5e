// Turns a `RegisterActivity` record into a domain `Activity` served by the caller.
import ActivityKit
import DBus

/// Decodes the `a{sv}` of `RegisterActivity` (API.md §3): keys are checked against an
/// allow-list with types; `id`, `name`, `category` and `object_path` are required.
enum RegistrationDecoder {
    private static let schema = OptionSchema(
        method: "RegisterActivity",
        types: [
            "id": "s", "name": "s", "names": "a{ss}", "icon": "s", "category": "s",
            "match": "a{sv}", "object_path": "o", "priority": "i",
        ])
    private static let matchSchema = OptionSchema(
        method: "RegisterActivity: match",
        types: ["schemes": "as", "hosts": "as", "path_prefixes": "as"])

    static func decode(_ record: [String: Value], owner: String) throws(ActivityError) -> Activity {
        let fields = try schema.validate(record)
        func required(_ key: String) throws(ActivityError) -> Value {
            guard let value = fields[key] else {
                throw .invalidArgument("RegisterActivity: '\(key)' is required")
            }
            return value
        }
        let id = try ActivityID(required("id").string ?? "")
        let name = try required("name").string ?? ""
        guard !name.isEmpty else { throw .invalidArgument("RegisterActivity: 'name' must not be empty") }
        let categoryName = try required("category").string ?? ""
        guard let category = ActivityCategory(rawValue: categoryName) else {
            throw .invalidArgument("RegisterActivity: 'category' must be 'share' or 'action', got '\(categoryName)'")
        }
        let objectPath = try required("object_path").objectPath!
        let match = try decodeMatch(fields["match"]?.vardict ?? [:])
        return Activity(
            id: id, name: name, names: fields["names"]?.stringDict ?? [:],
            icon: fields["icon"]?.string ?? "", category: category, origin: .dbus,
            match: match, requires: Requirements(executables: [], dbusNames: []),
            perform: .provider(owner: owner, objectPath: objectPath.rawValue),
            priority: Int(fields["priority"]?.int32 ?? 0), owner: owner)
    }

    private static func decodeMatch(_ match: [String: Value]) throws(ActivityError) -> ActivityKit.MatchRule {
        let fields = try matchSchema.validate(match)
        return try ActivityKit.MatchRule(
            schemes: fields["schemes"]?.stringArray,
            hosts: fields["hosts"]?.stringArray,
            pathPrefixes: fields["path_prefixes"]?.stringArray)
    }
}
