// Turns the contents of the applications directories into installed DesktopApplications (Desktop Entry Spec 1.5).

/// Finds the installed applications in the applications directories, pure: the caller reads
/// the files and passes their contents in.
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
        /// Entries left out on purpose: Hidden, not Type=Application, no Exec, TryExec
        /// missing, OnlyShowIn/NotShowIn.
        public var skipped: [Skipped] = []
    }

    /// Scans `directories`, highest precedence first.
    ///
    /// The first directory holding a desktop id wins it; the winner then decides alone, so a
    /// `Hidden=true`, skipped or broken file hides an entry of the same id lower down (a
    /// user's broken override is reported, not silently replaced by the system file).
    /// `currentDesktops` are the `XDG_CURRENT_DESKTOP` names (case-sensitive, as in the spec);
    /// `locale` picks the Name for `%c`; `hasExecutable` answers TryExec (a name looked up on
    /// `PATH`, or an absolute path).
    public static func scan(
        _ directories: [Directory], currentDesktops: [String], locale: String?,
        hasExecutable: (String) -> Bool
    ) -> Result {
        var result = Result()
        var claimed: Set<String> = []
        for directory in directories {
            var found: [(id: String, relative: String)] = []
            // Sorted so that two paths naming the same id in one directory
            // (`a-b.desktop`, `a/b.desktop`) resolve the same way every time.
            for relative in directory.files.keys.sorted() {
                guard let id = desktopID(forRelativePath: relative), claimed.insert(id).inserted else { continue }
                found.append((id, relative))
            }
            for (id, relative) in found.sorted(by: { $0.id < $1.id }) {
                let path = MimeAppsList.join(directory.path, normalizedRelative(relative))
                do {
                    let outcome = try load(
                        id: id, path: path, directory: directory.path, contents: directory.files[relative]!,
                        currentDesktops: currentDesktops, locale: locale, hasExecutable: hasExecutable)
                    switch outcome {
                    case .application(let app): result.applications.append(app)
                    case .skipped(let reason): result.skipped.append(Skipped(desktopID: id, path: path, reason: reason))
                    }
                } catch {
                    result.errors.append(error)
                }
            }
        }
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

    /// The `XDG_CURRENT_DESKTOP` names as written (`"GNOME:ubuntu"` → `["GNOME", "ubuntu"]`).
    public static func currentDesktops(from value: String?) -> [String] {
        (value ?? "").split(separator: ":").map(String.init)
    }

    private enum Outcome {
        case application(DesktopApplication)
        case skipped(String)
    }

    private static func normalizedRelative(_ relative: String) -> String {
        relative.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    private static func load(
        id: String, path: String, directory: String, contents: String, currentDesktops: [String],
        locale: String?, hasExecutable: (String) -> Bool
    ) throws(DesktopEntryError) -> Outcome {
        let entry = try DesktopEntry(parsing: contents, fileName: path)
        func fail(_ key: String?, _ message: String) -> DesktopEntryError {
            DesktopEntryError(fileName: path, line: key.flatMap { entry.line(ofKey: $0) }, message: message)
        }
        if try entry.boolean("Hidden") == true { return .skipped("Hidden=true (deleted)") }
        guard let type = entry.string("Type") else { throw fail(nil, "missing required key Type") }
        guard type == "Application" else { return .skipped("Type=\(type), not Application") }
        guard let name = entry.string("Name"), !name.isEmpty else { throw fail("Name", "missing required key Name") }
        let noDisplay = try entry.boolean("NoDisplay") ?? false
        guard let exec = entry.string("Exec"), !exec.isEmpty else { return .skipped("no Exec key") }
        if let tryExec = entry.string("TryExec"), !tryExec.isEmpty, !hasExecutable(tryExec) {
            return .skipped("TryExec '\(tryExec)' not found")
        }
        if let reason = showInReason(entry, currentDesktops: currentDesktops) { return .skipped(reason) }
        guard let activityID = activityID(forDesktopID: id) else {
            throw fail(nil, "desktop file id '\(id)' does not form a valid activity id ([A-Za-z0-9_.-], at most 255)")
        }
        let icon = entry.string("Icon").flatMap { $0.isEmpty ? nil : $0 }
        let command: DesktopExec
        do { command = try DesktopExec(parsing: exec) } catch { throw fail("Exec", error.description) }
        let context = DesktopExec.Context(
            icon: icon, name: entry.localizedString("Name", locale: locale) ?? name, desktopFilePath: path)
        let template: [String]?
        do { template = try command.argvTemplate(context: context) } catch {
            if case .invalid = error { throw fail("Exec", error.description) }
            template = nil
        }
        let mimeTypes = entry.strings("MimeType") ?? []
        var schemes: [String] = []
        for mime in mimeTypes where mime.lowercased().hasPrefix("x-scheme-handler/") {
            let scheme = mime.dropFirst("x-scheme-handler/".count).lowercased()
            if !scheme.isEmpty && !schemes.contains(scheme) { schemes.append(scheme) }
        }
        return .application(
            DesktopApplication(
                desktopID: id, activityID: activityID, name: name, names: entry.localizedValues("Name"),
                icon: icon, schemes: schemes, mimeTypes: mimeTypes, argvTemplate: template, path: path,
                directory: directory, noDisplay: noDisplay))
    }

    /// The spec's rule: each current desktop in order; the first found in OnlyShowIn shows the
    /// entry, the first found in NotShowIn hides it; with no match, an OnlyShowIn hides it.
    private static func showInReason(_ entry: DesktopEntry, currentDesktops: [String]) -> String? {
        let only = entry.strings("OnlyShowIn")
        let not = entry.strings("NotShowIn") ?? []
        for desktop in currentDesktops {
            if only?.contains(desktop) == true { return nil }
            if not.contains(desktop) { return "NotShowIn includes \(desktop)" }
        }
        if let only {
            return "OnlyShowIn=\(only.joined(separator: ";")) excludes the current desktop"
                + (currentDesktops.isEmpty ? " (XDG_CURRENT_DESKTOP unset)" : "")
        }
        return nil
    }
}
