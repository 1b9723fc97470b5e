// AttributionSwitch: whether config.json switches click measurement off.

/// The one key of `$XDG_CONFIG_HOME/activity-broker/config.json` that the broker reads
/// (API.md §11): click measurement is on unless it says `"private_click_measurement": false`.
public enum AttributionSwitch {
    /// The key in config.json.
    public static let key = "private_click_measurement"

    /// Whether click measurement is on by the bytes of config.json: off only when they are a JSON
    /// object whose `private_click_measurement` is `false`. Anything else leaves it on: not
    /// JSON, not an object, the key missing, or a value that is not a boolean (as Safari has it;
    /// the other keys of the file are not ours and are ignored).
    public static func isEnabled(configuration: [UInt8]) -> Bool {
        guard case .object(let top)? = JSONValue.parse(configuration), case .bool(let enabled)? = top[key]
        else {
            return true
        }
        return enabled
    }
}
