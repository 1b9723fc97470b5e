// The broker's own files under the XDG base directories: manifests, usage, reading list.
import SystemSupport

extension XDGPaths {
    /// `$XDG_DATA_HOME/activity-broker/extensions` (manifests of origin `user`).
    public var userManifestDirectory: String { dataHome + "/activity-broker/extensions" }

    /// Each `$XDG_DATA_DIRS` entry + `/activity-broker/extensions` (origin `system`), in order.
    public var systemManifestDirectories: [String] {
        dataDirectories.map { $0 + "/activity-broker/extensions" }
    }

    /// All manifest directories in precedence order: user first, then each system directory.
    /// (`--extensions-dir` directories come after these; the broker appends them.)
    public var manifestDirectories: [String] { [userManifestDirectory] + systemManifestDirectories }

    /// `$XDG_STATE_HOME/activity-broker` (created 0700 when the usage file is first written).
    public var stateDirectory: String { stateHome + "/activity-broker" }

    /// `$XDG_STATE_HOME/activity-broker/usage.json`.
    public var usageFile: String { stateDirectory + "/usage.json" }

    /// `$XDG_DATA_HOME/activity-broker/reading-list.json`.
    public var readingListFile: String { dataHome + "/activity-broker/reading-list.json" }
}
