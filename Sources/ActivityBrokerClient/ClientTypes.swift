// The values a client exchanges with the broker: items, offered activities, outcomes.
import ActivityBrokerInterface
import DBus

/// What is shared (API.md §2): an absolute URL, and optionally a title and free text.
public struct SharedItems: Hashable, Sendable {
    public var url: String
    public var title: String?
    public var text: String?

    public init(url: String, title: String? = nil, text: String? = nil) {
        self.url = url
        self.title = title
        self.text = text
    }

    var vardict: [String: Value] { ItemKey.record(url: url, title: title, text: text) }

    init?(vardict: [String: Value]) {
        guard let url = vardict[ItemKey.url]?.string else { return nil }
        self.init(url: url, title: vardict[ItemKey.title]?.string, text: vardict[ItemKey.text]?.string)
    }
}

/// One activity as the broker offers or lists it (API.md §2 "Activity record").
public struct OfferedActivity: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var icon: String
    /// `share` or `action`.
    public var category: String
    /// `dbus`, `user`, `system`, `builtin` or `desktop`.
    public var origin: String
    /// Only from `registered()`: whether its requirements are met, and why not.
    public var available: Bool?
    public var reason: String?

    public init(
        id: String, name: String, icon: String = "", category: String, origin: String = "dbus",
        available: Bool? = nil, reason: String? = nil
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.category = category
        self.origin = origin
        self.available = available
        self.reason = reason
    }

    init(record: [String: Value]) {
        func string(_ key: String) -> String { record[key]?.string ?? "" }
        self.init(
            id: string(RecordKey.id), name: string(RecordKey.name), icon: string(RecordKey.icon),
            category: string(RecordKey.category), origin: string(RecordKey.origin),
            available: record[RecordKey.available]?.bool, reason: record[RecordKey.reason]?.string)
    }
}

/// A result value a provider returns or a job reports (the `a{sv}` of `Finished`).
public enum ResultValue: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
    case double(Double)

    init?(_ value: Value) {
        switch value.unwrapped {
        case .string(let s): self = .string(s)
        case .boolean(let b): self = .boolean(b)
        case .double(let d): self = .double(d)
        case .byte(let n): self = .integer(Int64(n))
        case .int16(let n): self = .integer(Int64(n))
        case .uint16(let n): self = .integer(Int64(n))
        case .int32(let n): self = .integer(Int64(n))
        case .uint32(let n): self = .integer(Int64(n))
        case .int64(let n): self = .integer(n)
        case .uint64(let n): self = .integer(Int64(clamping: n))
        default: return nil
        }
    }

    var value: Value {
        switch self {
        case .string(let s): .string(s)
        case .integer(let n): .int64(n)
        case .boolean(let b): .boolean(b)
        case .double(let d): .double(d)
        }
    }

    public var description: String {
        switch self {
        case .string(let s): s
        case .integer(let n): String(n)
        case .boolean(let b): String(b)
        case .double(let d): String(d)
        }
    }
}

/// How a performed activity ended (`Finished(s state, a{sv} results)`).
public struct ActivityOutcome: Hashable, Sendable {
    public enum State: String, Sendable { case completed, cancelled, failed }
    public var state: State
    /// What the activity reported; for failures `error` (an error name) and `message`.
    public var results: [String: ResultValue]

    public init(state: State, results: [String: ResultValue] = [:]) {
        self.state = state
        self.results = results
    }

    public static let completed = ActivityOutcome(state: .completed)
    public static let cancelled = ActivityOutcome(state: .cancelled)

    /// A failure carrying an error name and a message, as the broker reports them.
    public static func failed(error: String = BrokerErrorName.providerFailed.rawValue, message: String)
        -> ActivityOutcome
    {
        ActivityOutcome(state: .failed, results: [ResultKey.error: .string(error), ResultKey.message: .string(message)])
    }

    /// The activity a `share` performed (the user's choice in the sheet), when one was chosen.
    public var activityID: String? {
        if case .string(let id)? = results[ResultKey.activityID] { return id }
        return nil
    }

    /// What the provider returned, without the key the broker adds to a `share`'s results
    /// (`activity_id`): what a user is shown after "Done".
    public var providerResults: [String: ResultValue] {
        results.filter { $0.key != ResultKey.activityID }
    }

    /// The failure's message, when there is one.
    public var message: String? {
        if case .string(let message)? = results[ResultKey.message] { return message }
        return nil
    }

    init(state: State, values: [String: Value]) {
        self.state = state
        self.results = values.compactMapValues(ResultValue.init)
    }

    var resultValues: [String: Value] { results.mapValues(\.value) }
}
