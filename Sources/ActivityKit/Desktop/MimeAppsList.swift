// One parsed mimeapps.list file, and the ordered list of places where such files live.

/// One `mimeapps.list` (or `$desktop-mimeapps.list`) file (mime-apps spec 1.0.1).
///
/// Parsing is tolerant, as real files are written by many tools: a repeated group merges
/// into the first, a repeated key keeps its first value, and unknown groups are ignored.
public struct MimeAppsList: Hashable, Sendable {
    /// The path given when parsing; its directory decides which desktop files it sits with.
    public let path: String
    /// `true` for a `$desktop-mimeapps.list`: per the spec only its default applications count.
    public let isDesktopSpecific: Bool
    /// `true` for GLib's old `defaults.list` (data directories only): GIO still reads its
    /// `[Default Applications]`, and nothing else.
    public let isLegacyDefaults: Bool
    /// Whether only `[Default Applications]` counts in this file (GIO warns about and
    /// ignores added or removed associations there).
    public var isDefaultsOnly: Bool { isDesktopSpecific || isLegacyDefaults }
    /// `[Default Applications]`: MIME type (lowercased) → desktop ids, most preferred first.
    public let defaults: [String: [String]]
    /// `[Added Associations]`: MIME type (lowercased) → desktop ids.
    public let added: [String: [String]]
    /// `[Removed Associations]`: MIME type (lowercased) → desktop ids.
    public let removed: [String: [String]]
    /// The keys (`Group/mime-type`, lowercased type) that listed more than `maximumIDsPerKey`
    /// distinct ids: Default, then Added, then Removed, each group's keys in file order. Only
    /// the first ids were kept; the broker logs one line naming the file.
    public let truncatedKeys: [String]

    /// Distinct desktop ids kept per key: the rest of a longer list is ignored. GIO keeps
    /// every id, de-duplicating each list by searching it per id, so a 1 MiB line of 100,000
    /// ids costs it ~10^10 comparisons; real lists name a handful of applications.
    public static let maximumIDsPerKey = 1024

    /// Parses `contents`; throws a `DesktopEntryError` naming `path` and the line for a
    /// malformed line. An empty string stands for a missing file.
    public init(parsing contents: String, path: String) throws(DesktopEntryError) {
        self.path = path
        let baseName = path.split(separator: "/").last.map(String.init) ?? path
        isDesktopSpecific = baseName != "mimeapps.list" && baseName.hasSuffix("-mimeapps.list")
        isLegacyDefaults = baseName == "defaults.list"
        let file = try DesktopEntryKeyFile(parsing: contents, fileName: path, dialect: .mimeApps)
        var truncated: [String] = []
        func table(_ group: String) -> [String: [String]] {
            guard let g = file.group(group) else { return [:] }
            var result: [String: [String]] = [:]
            // MIME types compare case-insensitively; keys are stored lowercased.
            for key in g.keys where result[key.lowercased()] == nil {
                // De-duplicated here (every user of the list skips a repeated id, as GIO
                // does), so the cap counts applications, not repetitions.
                var ids = OrderedIDs()
                for id in DesktopEntryKeyFile.splitList(g.values[key]!.raw) where !ids.contains(id) {
                    guard ids.ids.count < Self.maximumIDsPerKey else {
                        truncated.append(group + "/" + key.lowercased())
                        break
                    }
                    ids.append(id)
                }
                result[key.lowercased()] = ids.ids
            }
            return result
        }
        defaults = table("Default Applications")
        added = table("Added Associations")
        removed = table("Removed Associations")
        truncatedKeys = truncated
    }

    /// The lowercase desktop names from `XDG_CURRENT_DESKTOP` (`"GNOME:ubuntu"` → `["gnome", "ubuntu"]`).
    public static func desktopNames(fromCurrentDesktop value: String?) -> [String] {
        (value ?? "").split(separator: ":").map { $0.lowercased() }.filter { !$0.isEmpty }
    }

    /// Every place a mimeapps.list may be, highest precedence first, per the spec's table:
    /// config home, config dirs, data home `applications/`, data dirs `applications/`; in each
    /// directory the `$desktop-mimeapps.list` files (in `currentDesktops` order) come before
    /// `mimeapps.list`, and in the data directories GLib's old `defaults.list` comes last, as
    /// GIO reads it. `currentDesktops` are lowercased here.
    public static func candidatePaths(
        configHome: String, configDirs: [String], dataHome: String, dataDirs: [String],
        currentDesktops: [String]
    ) -> [String] {
        let desktops = currentDesktops.map { $0.lowercased() }.filter { !$0.isEmpty }
        let configs = [configHome] + configDirs
        let data = [join(dataHome, "applications")] + dataDirs.map { join($0, "applications") }
        var paths: [String] = []
        for (dir, isData) in configs.map({ ($0, false) }) + data.map({ ($0, true) }) {
            for desktop in desktops { paths.append(join(dir, "\(desktop)-mimeapps.list")) }
            paths.append(join(dir, "mimeapps.list"))
            if isData { paths.append(join(dir, "defaults.list")) }
        }
        return paths
    }

    /// `candidatePaths` from environment values, with the XDG Base Directory defaults for
    /// unset or empty variables (`~/.config`, `/etc/xdg`, `~/.local/share`,
    /// `/usr/local/share:/usr/share`); relative entries are ignored, as that spec requires.
    public static func candidatePaths(environment: [String: String], home: String) -> [String] {
        let xdg = XDGDirectories(environment: environment, home: home)
        return candidatePaths(
            configHome: xdg.configHome, configDirs: xdg.configDirs, dataHome: xdg.dataHome,
            dataDirs: xdg.dataDirs,
            currentDesktops: desktopNames(fromCurrentDesktop: environment["XDG_CURRENT_DESKTOP"]))
    }

    static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }
}

/// The XDG Base Directory values with their defaults applied (internal helper).
struct XDGDirectories {
    var configHome: String
    var configDirs: [String]
    var dataHome: String
    var dataDirs: [String]

    init(environment: [String: String], home: String) {
        func single(_ name: String, _ fallback: String) -> String {
            if let v = environment[name], v.hasPrefix("/") { return v }
            return fallback
        }
        func list(_ name: String, _ fallback: [String]) -> [String] {
            let items = (environment[name] ?? "").split(separator: ":").map(String.init).filter {
                $0.hasPrefix("/")
            }
            return items.isEmpty ? fallback : items
        }
        configHome = single("XDG_CONFIG_HOME", MimeAppsList.join(home, ".config"))
        configDirs = list("XDG_CONFIG_DIRS", ["/etc/xdg"])
        dataHome = single("XDG_DATA_HOME", MimeAppsList.join(home, ".local/share"))
        dataDirs = list("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])
    }
}
