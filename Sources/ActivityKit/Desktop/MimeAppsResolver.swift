// The mime-apps algorithms as GIO runs them: applications associated with a MIME type, and its default.

/// What one applications directory holds, as the mime-apps algorithms see it.
public struct MimeAppsDirectoryContents: Hashable, Sendable {
    /// The directory, e.g. `/usr/share/applications`.
    public var path: String
    /// Every desktop id with a file here, loadable or not: such an id masks the same id in
    /// directories of lower precedence.
    public var desktopIDs: Set<String> = []
    /// MIME type (lowercased) → the ids whose `MimeType=` lists it, sorted: what
    /// `update-desktop-database` writes to `mimeinfo.cache`, which is how GIO learns them.
    public var mimeCache: [String: [String]] = [:]

    public init(path: String, desktopIDs: Set<String> = [], mimeCache: [String: [String]] = [:]) {
        self.path = path
        self.desktopIDs = desktopIDs
        self.mimeCache = mimeCache
    }
}

/// All mimeapps.list files in precedence order, the applications directories, and the
/// spec's lookups over them, computed as GLib's GIO computes them (`gdesktopappinfo.c`).
///
/// Each directory (config home, config dirs, data home's and data dirs' `applications/`)
/// contributes, in this order: its `$desktop-mimeapps.list` files (defaults only), its
/// `mimeapps.list` (added, removed, defaults), its `defaults.list` (defaults only), then the
/// `MimeType=` lines of its desktop files. An id added or removed in a directory is ignored
/// there when a directory of higher precedence has a file of that id (it is masked).
public struct MimeAppsResolver: Sendable {
    /// The files that parsed, in precedence order.
    public let lists: [MimeAppsList]
    /// One error per file that did not parse (that file is then treated as empty).
    public let errors: [DesktopEntryError]
    private let directories: [Directory]

    private struct Tweaks: Sendable {
        var additions = OrderedIDs()
        var removals = OrderedIDs()
        var defaults = OrderedIDs()
    }

    private struct Directory: Sendable {
        var path: String
        var desktopIDs: Set<String>
        var tweaks: [String: Tweaks] = [:]
    }

    /// Parses `files` (path, contents; a missing file as empty contents), highest precedence
    /// first, and joins them with the applications directories' `contents`. A directory that
    /// appears in no file path comes after all those that do, in the order given.
    public init(
        files: [(path: String, contents: String)], directories contents: [MimeAppsDirectoryContents] = []
    ) {
        var lists: [MimeAppsList] = []
        var errors: [DesktopEntryError] = []
        for (path, text) in files {
            do { lists.append(try MimeAppsList(parsing: text, path: path)) } catch { errors.append(error) }
        }
        var order = OrderedIDs()
        for path in files.map({ Self.directory(of: $0.path) }) + contents.map({ Self.normalize($0.path) }) {
            order.append(path)
        }
        var directories = order.ids.map { Directory(path: $0, desktopIDs: []) }
        let indices = Dictionary(uniqueKeysWithValues: order.ids.enumerated().map { ($1, $0) })
        func index(_ path: String) -> Int { indices[path]! }
        for list in lists {
            let i = index(Self.directory(of: list.path))
            var allMimeTypes = Set(list.defaults.keys)
            if !list.isDefaultsOnly {
                allMimeTypes.formUnion(list.added.keys); allMimeTypes.formUnion(list.removed.keys)
            }
            for mime in allMimeTypes {
                var t = directories[i].tweaks[mime] ?? Tweaks()
                if !list.isDefaultsOnly {
                    Self.expand(&t.additions, with: list.added[mime] ?? [], excluding: t.removals)
                    Self.expand(&t.removals, with: list.removed[mime] ?? [], excluding: t.additions)
                }
                Self.expand(&t.defaults, with: list.defaults[mime] ?? [])
                directories[i].tweaks[mime] = t
            }
        }
        for content in contents {
            let i = index(Self.normalize(content.path))
            directories[i].desktopIDs.formUnion(content.desktopIDs)
            for (mime, ids) in content.mimeCache {
                var t = directories[i].tweaks[mime] ?? Tweaks()
                Self.expand(&t.additions, with: ids, excluding: t.removals)
                directories[i].tweaks[mime] = t
            }
        }
        self.lists = lists
        self.errors = errors
        self.directories = directories
    }

    /// Every MIME type (lowercased) that some file or desktop entry mentions.
    public var mimeTypes: Set<String> {
        Set(directories.flatMap { $0.tweaks.keys })
    }

    /// The desktop ids associated with `mimeType`, most preferred first, installed or not
    /// (GIO's `g_desktop_app_info_get_desktop_ids_for_content_type`): directory by directory,
    /// the additions not masked and not removed before, then the removals remembered.
    public func associatedApplications(for mimeType: String) -> [String] {
        let mimeType = mimeType.lowercased()
        var hits = OrderedIDs()
        var blocklist: Set<String> = []
        for (i, directory) in directories.enumerated() {
            guard let tweaks = directory.tweaks[mimeType] else { continue }
            for id in tweaks.additions.ids where !blocklist.contains(id) && !isMasked(id, below: i) {
                hits.append(id)
            }
            for id in tweaks.removals.ids where !hits.contains(id) && !isMasked(id, below: i) {
                blocklist.insert(id)
            }
        }
        return hits.ids
    }

    /// The ids `[Default Applications]` names for `mimeType`, file by file in precedence order.
    public func namedDefaults(for mimeType: String) -> [String] {
        var result = OrderedIDs()
        for directory in directories {
            Self.expand(&result, with: directory.tweaks[mimeType.lowercased()]?.defaults.ids ?? [])
        }
        return result.ids
    }

    /// The default application for `mimeType` (e.g. `x-scheme-handler/https`) among
    /// `installed` ids: the first named default that is installed and associated with the
    /// type (API.md §4.1, the mime-apps spec), else the most preferred associated installed
    /// application; `nil` when none.
    public func defaultApplication(for mimeType: String, installed: Set<String>) -> String? {
        let associated = associatedApplications(for: mimeType).filter(installed.contains)
        let isAssociated = Set(associated)
        if let named = namedDefaults(for: mimeType).first(where: isAssociated.contains) { return named }
        return associated.first
    }

    private func isMasked(_ id: String, below index: Int) -> Bool {
        directories[..<index].contains { $0.desktopIDs.contains(id) }
    }

    /// GIO's `expand_strv`: appends each id not yet present and not in `excluded`. GIO
    /// searches the list for each id (quadratic in a long list); the set here keeps it linear.
    private static func expand(
        _ list: inout OrderedIDs, with ids: [String], excluding excluded: OrderedIDs? = nil
    ) {
        for id in ids where excluded?.contains(id) != true { list.append(id) }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return normalize(String(path[..<slash]))
    }

    static func normalize(_ dir: String) -> String {
        var d = dir
        while d.count > 1 && d.hasSuffix("/") { d.removeLast() }
        return d
    }
}

/// Strings in first-seen order, each once: GIO's id lists, with a set beside the order so
/// that a list of 100,000 ids (one 1 MiB line, or as many desktop files naming one MIME
/// type) is built in linear time, not by searching the list for every id.
struct OrderedIDs: Sendable {
    /// The strings, first seen first.
    private(set) var ids: [String] = []
    private var members: Set<String> = []

    /// Whether `id` was appended.
    func contains(_ id: String) -> Bool { members.contains(id) }

    /// Appends `id` unless it is already here.
    mutating func append(_ id: String) {
        if members.insert(id).inserted { ids.append(id) }
    }
}
