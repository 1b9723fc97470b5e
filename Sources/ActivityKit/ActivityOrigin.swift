// ActivityOrigin: where an activity came from (API.md §2 `origin`).

/// Where an activity was defined; its raw value is the `origin` of the activity record.
public enum ActivityOrigin: String, Sendable, CaseIterable, Hashable {
    /// Registered at run time over D-Bus (`RegisterActivity`).
    case dbus
    /// A manifest in `$XDG_DATA_HOME/activity-broker/extensions/`.
    case user
    /// A manifest in an `$XDG_DATA_DIRS` entry.
    case system
    /// A manifest in an `--extensions-dir` directory.
    case builtin
    /// An installed application's desktop entry (API.md §4.1).
    case desktop
}
