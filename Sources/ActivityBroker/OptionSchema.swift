// Allow-lists of option keys and their D-Bus types, checked before a method acts.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// The options a method accepts: key → D-Bus signature.
///
/// Unknown keys are rejected rather than ignored: `Broker1` is a versioned interface, so a
/// new option arrives with a new interface, and a typo must not silently change nothing.
/// Items (API.md §2) are the exception and ignore unknown keys; see `ItemsDecoder`.
struct OptionSchema: Sendable {
    let method: String
    let types: [String: Signature]

    /// Checks `options` (an unwrapped `a{sv}`) and returns it, or throws `invalidArgument`
    /// naming the bad key and what was expected.
    func validate(_ options: [String: Value]) throws(ActivityError) -> [String: Value] {
        for (key, value) in options {
            guard let expected = types[key] else {
                let known = types.keys.sorted().joined(separator: ", ")
                throw .invalidArgument(
                    "\(method): unknown option '\(key)' (accepted: \(known.isEmpty ? "none" : known))")
            }
            guard value.signature == expected else {
                throw .invalidArgument(
                    "\(method): option '\(key)' must have type '\(expected.rawValue)', got '\(value.signature.rawValue)'")
            }
        }
        return options
    }
}

extension OptionSchema {
    static let listActivities = OptionSchema(
        method: Broker1.listActivities.name.rawValue, types: Broker1.listActivitiesOptions)
    static let perform = OptionSchema(method: Broker1.perform.name.rawValue, types: Broker1.performOptions)
    static let share = OptionSchema(method: Broker1.share.name.rawValue, types: Broker1.shareOptions)
    static let listRegistered = OptionSchema(
        method: Broker1.listRegistered.name.rawValue, types: Broker1.listRegisteredOptions)
}
