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

    /// The longest `activation_token` (`Perform`, `Share`, `Browse`), in bytes. The token is
    /// handed on to what the broker starts (an exec child's `XDG_ACTIVATION_TOKEN`, a D-Bus
    /// activated app's platform data, the sheet's and browser window's `Open`), and a call that
    /// waits for the bus keeps it: compositors' tokens are tens of bytes, so 4 KiB is ample.
    static let maximumActivationTokenBytes = 4 << 10

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
        if let token = options[OptionKey.activationToken]?.string {
            try Self.checkActivationToken(token, in: method)
        }
        return options
    }

    /// Throws `invalidArgument` naming the option when `token` is longer than
    /// `maximumActivationTokenBytes`.
    private static func checkActivationToken(_ token: String, in method: String) throws(ActivityError) {
        guard token.utf8.count <= maximumActivationTokenBytes else {
            throw .invalidArgument(
                "\(method): option '\(OptionKey.activationToken)' must be at most \(maximumActivationTokenBytes) bytes, got \(token.utf8.count)"
            )
        }
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
