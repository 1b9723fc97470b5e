// The XDG Base Directory locations, from an injectable environment.
import Glibc

/// XDG base directories (Base Directory Specification 0.8) and the desktop files found through
/// them (the broker's own paths are an extension in ActivityBroker).
///
/// Built from an environment dictionary so tests need not touch the process environment.
/// Per the specification, relative paths in these variables are invalid and ignored: a
/// relative `XDG_DATA_HOME` counts as unset; relative entries of `XDG_DATA_DIRS` are dropped,
/// and a list left empty falls back to its default. All paths are absolute, without a
/// trailing slash.
public struct XDGPaths: Hashable, Sendable {
    /// `$HOME`, or the password database's home directory when HOME is unset or relative.
    public var home: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public var dataHome: String
    /// `$XDG_DATA_DIRS`, default `/usr/local/share:/usr/share`, in precedence order.
    public var dataDirectories: [String]
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public var stateHome: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public var configHome: String
    /// `$XDG_CONFIG_DIRS`, default `/etc/xdg`.
    public var configDirectories: [String]
    /// `$XDG_CURRENT_DESKTOP` split at colons (e.g. `["ubuntu", "GNOME"]`); empty when unset.
    public var currentDesktops: [String]

    public init(environment: [String: String] = ProcessEnvironment.current) {
        home = Self.absolute(environment["HOME"]) ?? Self.passwordHome() ?? "/"
        // A home of "/" must not give "//.local/share".
        let base = home == "/" ? "" : home
        dataHome = Self.absolute(environment["XDG_DATA_HOME"]) ?? base + "/.local/share"
        stateHome = Self.absolute(environment["XDG_STATE_HOME"]) ?? base + "/.local/state"
        configHome = Self.absolute(environment["XDG_CONFIG_HOME"]) ?? base + "/.config"
        dataDirectories = Self.list(environment["XDG_DATA_DIRS"]) ?? ["/usr/local/share", "/usr/share"]
        configDirectories = Self.list(environment["XDG_CONFIG_DIRS"]) ?? ["/etc/xdg"]
        currentDesktops = (environment["XDG_CURRENT_DESKTOP"] ?? "")
            .split(separator: ":", omittingEmptySubsequences: true).map(String.init)
    }

    // MARK: Derived paths

    /// Desktop entry directories in precedence order: `$XDG_DATA_HOME/applications`, then
    /// each `$XDG_DATA_DIRS/applications`.
    public var applicationDirectories: [String] {
        ([dataHome] + dataDirectories).map { $0 + "/applications" }
    }

    /// `mimeapps.list` files in the lookup order of the MIME Applications Associations
    /// specification: desktop-specific before generic, config before data directories.
    public var mimeAppsListFiles: [String] {
        let desktops = currentDesktops.map { $0.lowercased() + "-mimeapps.list" }
        let names = desktops + ["mimeapps.list"]
        let directories = [configHome] + configDirectories + applicationDirectories
        return directories.flatMap { directory in names.map { directory + "/" + $0 } }
    }

    // MARK: Parsing

    /// The value when it is an absolute path (trailing slashes removed), else nil.
    static func absolute(_ value: String?) -> String? {
        guard var value, value.hasPrefix("/") else { return nil }
        while value.count > 1 && value.hasSuffix("/") { value.removeLast() }
        return value
    }

    /// The absolute entries of a colon-separated list, duplicates dropped; nil when none.
    static func list(_ value: String?) -> [String]? {
        guard let value else { return nil }
        var seen = Set<String>()
        let entries = value.split(separator: ":").compactMap { absolute(String($0)) }
            .filter { seen.insert($0).inserted }
        return entries.isEmpty ? nil : entries
    }

    private static func passwordHome() -> String? {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getpwuid_r(getuid(), &record, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let directory = record.pw_dir else { return nil }
        return absolute(String(cString: directory))
    }
}
