// The keys of every a{sv} on the wire (API.md §2, §3, §6): items, records, registrations, options, results.
import DBus

/// Keys of the items (`a{sv}`) that describe what is shared.
public enum ItemKey {
    public static let url = "url", title = "title", text = "text"
    /// Every item key the broker reads; other keys are ignored (forward compatibility).
    public static let known: Set<String> = [url, title, text]

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
    public static let id = "id", name = "name", icon = "icon", category = "category", origin = "origin"
    /// Only in `ListRegistered`: whether it can run, and why not.
    public static let available = "available", reason = "reason"
}

/// Keys of a `RegisterActivity` record and of its `match`, with their types (the allow-lists).
public enum RegistrationKey {
    public static let id = "id", name = "name", names = "names", icon = "icon", category = "category"
    public static let match = "match", objectPath = "object_path", priority = "priority"
    /// `visibility` (s): `others` (default) or `owner` (`ActivityVisibility`).
    public static let visibility = "visibility"
    /// The keys of `match`.
    public static let schemes = "schemes", hosts = "hosts", pathPrefixes = "path_prefixes"

    /// Every key a registration may carry, with its type.
    public static let types: [String: Signature] = [
        id: "s", name: "s", names: "a{ss}", icon: "s", category: "s", match: "a{sv}", objectPath: "o",
        priority: "i", visibility: "s",
    ]
    /// Every key of `match`, with its type.
    public static let matchTypes: [String: Signature] = [schemes: "as", hosts: "as", pathPrefixes: "as"]
}

/// Keys of method options (allow-lists per method: `Broker1.*Options`, `Provider1.performOptions`).
public enum OptionKey {
    public static let locale = "locale", exclude = "exclude", includeOwn = "include_own"
    public static let activationToken = "activation_token", timeout = "timeout"
    /// `Share`'s browsing session (o), reserved for the browser service.
    public static let session = "session"
}

/// Keys the broker itself puts in a failed job's `Finished` results: an error name and a
/// message for people.
public enum ResultKey {
    public static let error = "error", message = "message"
    /// A `Share` job's `Finished`: the activity the user chose and the broker performed.
    public static let activityID = "activity_id"
}

/// Keys of `Browse`'s `event_attribution` (a{sv}, API.md §11, after `UIEventAttribution`),
/// with their types.
public enum EventAttributionKey {
    /// y: the ad's id, 0–255.
    public static let sourceIdentifier = "source_identifier"
    /// s: an https URL on the site the click leads to (the site of the URL browsed).
    public static let destinationURL = "destination_url"
    /// s: the https origin that receives the report.
    public static let reportEndpoint = "report_endpoint"
    /// s: what was clicked, for people; at most `EventAttribution.maximumDescriptionLength`
    /// (ActivityKit, where the field is checked) characters.
    public static let sourceDescription = "source_description"
    /// s: who placed the ad, for people.
    public static let purchaser = "purchaser"
    /// Every key with its type (all are required).
    public static let types: [String: Signature] = [
        sourceIdentifier: "y", destinationURL: "s", reportEndpoint: "s", sourceDescription: "s", purchaser: "s",
    ]
}
