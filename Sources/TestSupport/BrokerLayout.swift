// The directory tree and environment of a test broker: XDG directories, PATH and extensions in one place.
import Foundation

/// Where a test broker keeps everything, all below `root`, so that the user's manifests,
/// applications, mimeapps.list and usage stay out of every test and of the bench.
///
/// `home/` (HOME), `data/` (XDG_DATA_HOME), `system/` (XDG_DATA_DIRS), `config/`
/// (XDG_CONFIG_HOME), `system-config/` (XDG_CONFIG_DIRS), `state/` (XDG_STATE_HOME),
/// `builtin/` (the broker's `--extensions-dir`), `bin/` (first on PATH, for stand-in
/// programs), `out/` (what recording scripts write), `services/` (a bus's activation files).
public struct BrokerLayout: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    public var home: String { root + "/home" }
    public var dataHome: String { root + "/data" }
    public var dataDirectory: String { root + "/system" }
    public var configHome: String { root + "/config" }
    public var configDirectory: String { root + "/system-config" }
    public var stateHome: String { root + "/state" }
    /// The built-in manifests (`--extensions-dir`).
    public var extensionsDirectory: String { root + "/builtin" }
    /// First on PATH.
    public var bin: String { root + "/bin" }
    /// Where recording scripts write.
    public var out: String { root + "/out" }
    /// Activation files for a bus started with this layout.
    public var services: String { root + "/services" }
    /// Manifests of origin `user`.
    public var userExtensions: String { dataHome + "/activity-broker/extensions" }
    /// Manifests of origin `system`.
    public var systemExtensions: String { dataDirectory + "/activity-broker/extensions" }
    /// The usage ranking's file.
    public var usageFile: String { stateHome + "/activity-broker/usage.json" }
    /// `bin/`, then the system's own directories.
    public var path: String { bin + ":/usr/local/bin:/usr/bin:/bin" }

    /// Creates every directory of the layout.
    public func create() throws {
        for directory in [
            home, userExtensions, systemExtensions, configHome, configDirectory, stateHome, extensionsDirectory,
            bin, out, services,
        ] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    /// The whole environment of a broker (and of its clients) on the bus at `busAddress`:
    /// nothing of the test process's but the bus, this tree, a plain PATH and the C locale.
    public func environment(busAddress: String) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": home, "XDG_DATA_HOME": dataHome,
            "XDG_DATA_DIRS": dataDirectory, "XDG_CONFIG_HOME": configHome, "XDG_CONFIG_DIRS": configDirectory,
            "XDG_STATE_HOME": stateHome, "PATH": path, "LANG": "C",
        ]
    }
}
