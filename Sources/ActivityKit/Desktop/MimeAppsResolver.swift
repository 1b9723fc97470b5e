// The mime-apps spec's algorithms: applications associated with a MIME type, and its default application.

/// An installed desktop entry as the mime-apps algorithms see it.
public struct MimeAppsInstalledEntry: Hashable, Sendable {
    /// The desktop file id, e.g. `org.mozilla.firefox.desktop`.
    public var desktopID: String
    /// The applications directory the effective file of this id lives in.
    public var directory: String
    /// Its `MimeType=` list.
    public var mimeTypes: [String]

    public init(desktopID: String, directory: String, mimeTypes: [String]) {
        self.desktopID = desktopID
        self.directory = directory
        self.mimeTypes = mimeTypes
    }
}

/// All mimeapps.list files in precedence order, and the spec's lookups over them.
///
/// Pass every candidate path (`MimeAppsList.candidatePaths`), a missing file as empty
/// contents: the association algorithm interleaves each applications directory's desktop
/// files right after that directory's mimeapps.list, so the directories must be known even
/// where no file exists. Installed entries whose directory appears in no path are
/// considered last, in the order given.
public struct MimeAppsResolver: Sendable {
    /// The files that parsed, in precedence order.
    public let lists: [MimeAppsList]
    /// One error per file that did not parse (that file is then treated as empty).
    public let errors: [DesktopEntryError]

    /// Parses `files` (path, contents), highest precedence first.
    public init(files: [(path: String, contents: String)]) {
        var lists: [MimeAppsList] = []
        var errors: [DesktopEntryError] = []
        for (path, contents) in files {
            do { lists.append(try MimeAppsList(parsing: contents, path: path)) } catch { errors.append(error) }
        }
        self.lists = lists
        self.errors = errors
    }

    /// The desktop ids associated with `mimeType`, most preferred first (the spec's
    /// suggested algorithm): walking the files in order, add the file's added associations
    /// not yet removed, then remember its removed associations, then add the desktop files
    /// of the same directory that list the type, then treat all of that directory's ids as
    /// seen. Desktop-specific files are skipped here (they may only set defaults).
    /// Only ids in `installed` are returned.
    public func associatedApplications(for mimeType: String, installed: [MimeAppsInstalledEntry]) -> [String] {
        let mimeType = mimeType.lowercased()
        let installedIDs = Set(installed.map(\.desktopID))
        var results: [String] = []
        var blacklist: Set<String> = []
        var visited: Set<String> = []

        func visitDirectory(_ dir: String) {
            guard visited.insert(dir).inserted else { return }
            let here = installed.filter { Self.normalize($0.directory) == dir }
            for entry in here.sorted(by: { $0.desktopID < $1.desktopID })
            where entry.mimeTypes.contains(where: { $0.lowercased() == mimeType }) && !blacklist.contains(entry.desktopID)
                && !results.contains(entry.desktopID)
            {
                results.append(entry.desktopID)
            }
            blacklist.formUnion(here.map(\.desktopID))
        }

        for (offset, list) in lists.enumerated() {
            let dir = Self.directory(of: list.path)
            if !list.isDesktopSpecific {
                for id in list.added[mimeType] ?? []
                where installedIDs.contains(id) && !blacklist.contains(id) && !results.contains(id) {
                    results.append(id)
                }
                blacklist.formUnion(list.removed[mimeType] ?? [])
            }
            // Desktop files of a directory come after all of its mimeapps.list files.
            let nextDir = offset + 1 < lists.count ? Self.directory(of: lists[offset + 1].path) : nil
            if nextDir != dir { visitDirectory(dir) }
        }
        for entry in installed { visitDirectory(Self.normalize(entry.directory)) }
        return results
    }

    /// The default application for `mimeType` (e.g. `x-scheme-handler/https`): the first id
    /// in the first file's `[Default Applications]` entry that is installed and associated
    /// with the type (not removed), trying later ids and then later files; failing that, the
    /// most preferred associated application; `nil` when none.
    public func defaultApplication(for mimeType: String, installed: [MimeAppsInstalledEntry]) -> String? {
        let associated = associatedApplications(for: mimeType, installed: installed)
        for list in lists {
            for id in list.defaults[mimeType.lowercased()] ?? [] where associated.contains(id) { return id }
        }
        return associated.first
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
