// The keys of every a{sv} on the wire (API.md §2, §3, §6): items, records, registrations, options, results.
import DBus

/// Keys of the items (`a{sv}`) that describe what is shared.
public enum ItemKey {
    public static let url = "url"
    public static let title = "title"
    public static let text = "text"

    /// The items `a{sv}` of a URL and an optional title and text (absent keys for nil).
    public static func record(url: String, title: String?, text: String?) -> [String: Value] {
        var items: [String: Value] = [ItemKey.url: .string(url)]
        if let title { items[ItemKey.title] = .string(title) }
        if let text { items[ItemKey.text] = .string(text) }
        return items
    }
}

/// Keys of an activity record, as `ListActivities` and `ListRegistered` return it.
public enum RecordKey {
    public static let id = "id"
    public static let name = "name"
    public static let icon = "icon"
    public static let category = "category"
    public static let origin = "origin"
    /// Only in `ListRegistered`.
    public static let available = "available"
    /// Only in `ListRegistered`, when not available.
    public static let reason = "reason"
}

/// Keys of a `RegisterActivity` record and of its `match`, with their types (the allow-lists).
public enum RegistrationKey {
    public static let id = "id"
    public static let name = "name"
    public static let names = "names"
    public static let icon = "icon"
    public static let category = "category"
    public static let match = "match"
    public static let objectPath = "object_path"
    public static let priority = "priority"

    public static let schemes = "schemes"
    public static let hosts = "hosts"
    public static let pathPrefixes = "path_prefixes"

    /// Every key a registration may carry, with its type.
    public static let types: [String: Signature] = [
        id: "s", name: "s", names: "a{ss}", icon: "s", category: "s", match: "a{sv}", objectPath: "o",
        priority: "i",
    ]
    /// Every key of `match`, with its type.
    public static let matchTypes: [String: Signature] = [schemes: "as", hosts: "as", pathPrefixes: "as"]
}

/// Keys of method options (allow-lists per method: `Broker1.*Options`, `Provider1.performOptions`).
public enum OptionKey {
    public static let locale = "locale"
    public static let exclude = "exclude"
    public static let includeOwn = "include_own"
    public static let activationToken = "activation_token"
    public static let timeout = "timeout"
}

/// Keys the broker itself puts in a failed job's `Finished` results.
public enum ResultKey {
    /// An error name (s).
    public static let error = "error"
    /// A message for people (s).
    public static let message = "message"
}
