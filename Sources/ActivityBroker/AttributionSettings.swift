// AttributionSettings: where click measurement keeps its state, and its off switch in config.json.
import ActivityKit
import Dispatch
import Glibc
import SystemSupport

/// The files of Private Click Measurement (API.md §11) and whether it is on.
///
/// On unless `$XDG_CONFIG_HOME/activity-broker/config.json` is an object with
/// `"private_click_measurement": false`. A missing or unreadable configuration leaves it on,
/// as Safari has it; other keys of the file are not ours and are ignored. Read each time it is
/// asked (a few bytes), so switching it off takes effect without restarting the broker.
struct AttributionSettings: Sendable {
    /// Larger configuration files are not read (and count as "on").
    static let configurationSizeLimit = 64 << 10

    /// `$XDG_STATE_HOME/activity-broker/attribution.json`.
    let storeFile: String
    /// `$XDG_CONFIG_HOME/activity-broker/config.json`.
    let configurationFile: String

    init(paths: XDGPaths) {
        storeFile = paths.stateHome + AttributionStoreFormat.pathInStateHome
        configurationFile = paths.configHome + "/activity-broker/config.json"
    }

    /// Whether clicks may be kept and reports sent now.
    var isEnabled: Bool {
        guard let data = try? SystemCalls.readFile(configurationFile, limit: Self.configurationSizeLimit) else {
            return true
        }
        return AttributionSwitch.isEnabled(configuration: data)
    }
}
