// Turns the contents of the applications directories into installed DesktopApplications, as GIO loads them.

/// Finds the installed applications in the applications directories, pure: the caller reads
/// the files and passes their contents in.
///
/// GLib's GIO is the reference (API.md §4.1). For each desktop id the directories are tried
/// in precedence order and the first file that *loads* is the application (GIO's
/// `g_desktop_app_info_new`): a file loads when it parses, says `Type=Application`, its
/// `TryExec` and its Exec program are on `PATH`. A file with `Hidden=true` means the id is
/// deleted. `NoDisplay`, `OnlyShowIn` and `NotShowIn` concern menus, not handlers,
/// and hide nothing here (GIO lists such entries too).
public enum DesktopApplicationScanner {
    /// One applications directory and its `.desktop` files.
    public struct Directory: Sendable {
        /// The directory, e.g. `/usr/share/applications`.
        public var path: String
        /// Path relative to `path` (`kde4/foo.desktop`) → file contents. Other names are ignored.
        public var files: [String: String]

        public init(path: String, files: [String: String]) {
            self.path = path
            self.files = files
        }
    }

    /// A valid entry that is deliberately not an application here, with the reason (for verbose logs).
    public struct Skipped: Hashable, Sendable {
        public var desktopID: String
        public var path: String
        public var reason: String
    }

    /// What a scan found.
    public struct Result: Sendable {
        /// The applications, ordered by directory precedence, then desktop id.
        public var applications: [DesktopApplication] = []
        /// One error per broken file, naming file and line; the other files still load.
        public var errors: [DesktopEntryError] = []
        /// Files left out on purpose: Hidden, not Type=Application, no Exec, TryExec or the
        /// Exec program missing.
        public var skipped: [Skipped] = []
        /// Per directory, what the mime-apps algorithms need (ids present, `MimeType=` lines).
        public var directories: [MimeAppsDirectoryContents] = []
    }

    /// Scans `directories`, highest precedence first.
    ///
    /// `locale` picks the Name for `%c`; `hasExecutable` answers for `TryExec` and the Exec
    /// program (a name looked up on `PATH`, or an absolute path).
    public static func scan(
        _ directories: [Directory], locale: String?, hasExecutable: (String) -> Bool
    ) -> Result {
        var result = Result()
        // id → (directory index, relative path) for every file, in precedence order.
        var files: [String: [(directory: Int, relative: String)]] = [:]
        var order: [String] = []
        for (index, directory) in directories.enumerated() {
            var contents = MimeAppsDirectoryContents(path: directory.path)
            var seenHere: Set<String> = []
            // Sorted so that two paths naming the same id in one directory
            // (`a-b.desktop`, `a/b.desktop`) resolve the same way every time.
            for relative in directory.files.keys.sorted() {
                guard let id = desktopID(forRelativePath: relative), seenHere.insert(id).inserted else {
                    continue
                }
                contents.desktopIDs.insert(id)
                if files[id] == nil { order.append(id) }
                files[id, default: []].append((index, relative))
                // The mimeinfo.cache update-desktop-database would write: every file that
                // parses and is not deleted, with its MimeType= list.
                if let entry = try? DesktopEntry(parsing: directory.files[relative]!, fileName: relative),
                    (try? entry.boolean("Hidden")) != true
                {
                    for mime in entry.strings("MimeType") ?? [] {
                        contents.mimeCache[mime.lowercased(), default: []].append(id)
                    }
                }
            }
            for key in contents.mimeCache.keys { contents.mimeCache[key]!.sort() }
            result.directories.append(contents)
        }
        var found: [(directory: Int, application: DesktopApplication)] = []
        for id in order {
            for (index, relative) in files[id]! {
                let directory = directories[index]
                let path = MimeAppsList.join(directory.path, normalizedRelative(relative))
                let outcome: Outcome
                do {
                    outcome = try load(
                        id: id, path: path, directory: directory.path, contents: directory.files[relative]!,
                        locale: locale, hasExecutable: hasExecutable)
                } catch {
                    result.errors.append(error)
                    continue
                }
                switch outcome {
                case .application(let app):
                    found.append((index, app))
                case .deleted(let reason), .loadedButUnusable(let reason):
                    result.skipped.append(Skipped(desktopID: id, path: path, reason: reason))
                case .notLoaded(let reason):
                    result.skipped.append(Skipped(desktopID: id, path: path, reason: reason))
                    continue
                }
                break
            }
        }
        result.applications = found.sorted {
            ($0.directory, $0.application.desktopID) < ($1.directory, $1.application.desktopID)
        }
        .map(\.application)
        return result
    }

    /// The desktop file id for a path relative to an applications directory:
    /// `kde4/kate.desktop` → `kde4-kate.desktop`; `nil` for files not ending in `.desktop`.
    public static func desktopID(forRelativePath relative: String) -> String? {
        let path = normalizedRelative(relative)
        guard path.hasSuffix(".desktop"), path.count > ".desktop".count else { return nil }
        return path.split(separator: "/").joined(separator: "-")
    }

    /// The activity id for a desktop id (`desktop.` + id without `.desktop`), or `nil` when it
    /// would not be a valid activity id.
    public static func activityID(forDesktopID id: String) -> String? {
        let base = id.hasSuffix(".desktop") ? String(id.dropLast(".desktop".count)) : id
        let candidate = "desktop." + base
        guard !base.isEmpty, candidate.count <= 255,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) })
        else { return nil }
        return candidate
    }

    /// The application directories, highest precedence first: `$XDG_DATA_HOME/applications`,
    /// then each `$XDG_DATA_DIRS` entry + `/applications`, with the XDG defaults for unset values.
    public static func applicationDirectories(environment: [String: String], home: String) -> [String] {
        let xdg = XDGDirectories(environment: environment, home: home)
        return ([xdg.dataHome] + xdg.dataDirs).map { MimeAppsList.join($0, "applications") }
    }

    private enum Outcome {
        case application(DesktopApplication)
        /// Loaded (so it decides for its id) but Hidden: the id is deleted.
        case deleted(String)
        /// Loaded, so it decides for its id, but the broker cannot launch it.
        case loadedButUnusable(String)
        /// Did not load: the next directory's file of the same id is tried, as GIO does.
        case notLoaded(String)
    }

    private static func normalizedRelative(_ relative: String) -> String {
        relative.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    private static func load(
        id: String, path: String, directory: String, contents: String, locale: String?,
        hasExecutable: (String) -> Bool
    ) throws(DesktopEntryError) -> Outcome {
        let entry = try DesktopEntry(parsing: contents, fileName: path)
        func fail(_ key: String?, _ message: String) -> DesktopEntryError {
            DesktopEntryError(fileName: path, line: key.flatMap { entry.line(ofKey: $0) }, message: message)
        }
        // Checked first so that the usual `[Desktop Entry]` + `Hidden=true` file, without a
        // Type, deletes the id (GIO would fail to load it and fall back to a lower copy for a
        // direct lookup, while its menus and MIME lookups already treat the id as gone).
        if try entry.boolean("Hidden") == true { return .deleted("Hidden=true (deleted)") }
        guard let type = entry.string("Type") else { throw fail(nil, "missing required key Type") }
        guard type == "Application" else { return .notLoaded("Type=\(type), not Application") }
        if let tryExec = entry.string("TryExec"), !tryExec.isEmpty, !hasExecutable(tryExec) {
            return .notLoaded("TryExec '\(tryExec)' not found")
        }
        let exec = entry.string("Exec").flatMap { $0.isEmpty ? nil : $0 }
        var command: DesktopExec?
        if let exec {
            do { command = try DesktopExec(parsing: exec) } catch { throw fail("Exec", error.description) }
            if case .literal(let program) = command!.arguments[0].first, command!.arguments[0].count == 1,
                !hasExecutable(program)
            {
                return .notLoaded("the Exec program '\(program)' is not on PATH")
            }
        }
        guard let name = entry.string("Name"), !name.isEmpty else {
            throw fail("Name", "missing required key Name")
        }
        let noDisplay = try entry.boolean("NoDisplay") ?? false
        let terminal = try entry.boolean("Terminal") ?? false
        let startupNotify = try entry.boolean("StartupNotify") ?? false
        let busName =
            try entry.boolean("DBusActivatable") == true
            ? DesktopLaunch.busName(forDesktopFilePath: path) : nil
        guard command != nil || busName != nil else { return .loadedButUnusable("no Exec key") }
        guard let activityID = activityID(forDesktopID: id) else {
            throw fail(
                nil, "desktop file id '\(id)' does not form a valid activity id ([A-Za-z0-9_.-], at most 255)"
            )
        }
        let icon = entry.string("Icon").flatMap { $0.isEmpty ? nil : $0 }
        var template: [String]?
        if let command {
            let context = DesktopExec.Context(
                icon: icon, name: entry.localizedString("Name", locale: locale) ?? name, desktopFilePath: path
            )
            do { template = try command.argvTemplate(context: context) } catch {
                if case .invalid = error { throw fail("Exec", error.description) }
            }
        }
        let mimeTypes = entry.strings("MimeType") ?? []
        var schemes = OrderedIDs()
        for mime in mimeTypes where mime.lowercased().hasPrefix(DesktopHandlers.schemeTypePrefix) {
            let scheme = mime.dropFirst(DesktopHandlers.schemeTypePrefix.count).lowercased()
            if !scheme.isEmpty { schemes.append(String(scheme)) }
        }
        let workingDirectory = entry.string("Path").flatMap { $0.isEmpty ? nil : $0 }
        return .application(
            DesktopApplication(
                desktopID: id, activityID: activityID, name: name, names: entry.localizedValues("Name"),
                icon: icon, schemes: schemes.ids, mimeTypes: mimeTypes, argvTemplate: template,
                urlFieldCode: template == nil ? nil : command?.urlFieldCode, path: path,
                directory: directory, noDisplay: noDisplay, terminal: terminal,
                workingDirectory: workingDirectory,
                busName: busName, startupNotify: startupNotify))
    }
}
