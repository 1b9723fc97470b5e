// Installed applications as "Open in <Name>" activities (API.md §4.1), read from disk.
import ActivityKit
import Dispatch
import Glibc
import SystemSupport

/// Reads desktop entries and mimeapps.list files and turns URL handlers into activities.
///
/// The parsing and the specifications' rules, as GIO applies them, live in ActivityKit
/// (`DesktopApplicationScanner`, `MimeAppsResolver`, `DesktopHandlers`, `DesktopLaunch`,
/// `OpenInPhrase`); this type only reads the files and builds `Activity` values. It keeps no
/// state, so the catalog runs it on its reading queue.
struct DesktopApplicationsSource {
    private let environment: [String: String]
    private let home: String
    private let machine: MachineEnvironment
    let applicationDirectories: [String]
    private let mimeAppsPaths: [String]
    static let maximumFileSize = 1 << 20
    /// The desktop-file text read from one `applications` directory, all files together: the
    /// walk bounds the names, and links can make many names of one large file. The same
    /// budget as a manifest directory's.
    static let maximumDirectoryBytes = ManifestDirectoryReader.maximumDirectoryBytes

    init(environment: [String: String], machine: MachineEnvironment) {
        self.environment = environment
        self.home = XDGPaths(environment: environment).home
        self.machine = machine
        self.applicationDirectories = DesktopApplicationScanner.applicationDirectories(
            environment: environment, home: home)
        self.mimeAppsPaths = MimeAppsList.candidatePaths(environment: environment, home: home)
    }

    /// Directories whose changes mean a reload: applications and mimeapps.list locations.
    var watchedDirectories: [String] {
        var seen = Set<String>()
        return (applicationDirectories + mimeAppsPaths.map(directoryName))
            .filter { seen.insert($0).inserted }
    }

    /// The names that matter in a mimeapps.list location that is not also an applications
    /// directory (`~/.config`, `/etc/xdg`, busy with every program's settings): the files
    /// the mime-apps spec and GIO read there.
    static let mimeAppsNames = DirectoryWatcher.NameFilter(
        names: ["mimeapps.list", "defaults.list"], suffixes: ["-mimeapps.list"])

    /// The name filters of `watchedDirectories`: every mimeapps.list location other than an
    /// applications directory (whose every `.desktop` name, in subdirectories too, counts).
    var watchFilters: [String: DirectoryWatcher.NameFilter] {
        let applications = Set(DirectoryWatcher.normalize(applicationDirectories))
        var filters: [String: DirectoryWatcher.NameFilter] = [:]
        for directory in DirectoryWatcher.normalize(mimeAppsPaths.map(directoryName))
        where !applications.contains(directory) {
            filters[directory] = Self.mimeAppsNames
        }
        return filters
    }

    /// What a scan found: the activities, each scheme's default application, and each broken file.
    struct Loaded {
        var activities: [Activity]
        /// Scheme → its default application's "Open in" names and own activity.
        var schemeDefaults: [String: SchemeDefault]
        var problems: [(file: String, message: String)]
    }

    /// Scans the applications and mimeapps.list files.
    func load() -> Loaded {
        // A locator of this scan's own: it runs off the loop, and a lookup racing a PATH change
        // must not leave a stale answer in the machine's cache.
        let locator = ExecutableLocator()
        let path = machine.path
        var unreadable: [(file: String, message: String)] = []
        let mimeAppsFiles = mimeAppsPaths.map { path in
            (path: path, contents: Self.readMimeApps(path, problems: &unreadable))
        }
        let directories = applicationDirectories.map { path in
            let listing = Self.desktopFiles(under: path)
            unreadable += listing.problems
            return DesktopApplicationScanner.Directory(path: path, files: listing.files)
        }
        let result = DesktopApplicationScanner.scan(
            directories, locale: BrokerConfiguration.locale(from: environment),
            hasExecutable: { locator.find($0, path: path) != nil })
        let resolver = MimeAppsResolver(
            files: mimeAppsFiles,
            directories: result.directories)
        var problems = unreadable
        problems += result.errors.map { (file: $0.fileName, message: $0.description) }
        problems += resolver.errors.map { (file: $0.fileName, message: $0.description) }
        for list in resolver.lists where !list.truncatedKeys.isEmpty {
            problems.append(
                (
                    list.path,
                    "more than \(MimeAppsList.maximumIDsPerKey) desktop ids in "
                        + list.truncatedKeys.joined(separator: ", ") + "; the rest are ignored"
                ))
        }
        let handlers = DesktopHandlers(applications: result.applications, resolver: resolver)

        var activities: [Activity] = []
        var offered: Set<String> = []
        for application in result.applications {
            let schemes = handlers.schemes(handledBy: application.desktopID)
            guard !schemes.isEmpty, let launch = application.launch else { continue }
            do {
                activities.append(try activity(for: application, schemes: schemes, launch: launch))
                offered.insert(application.desktopID)
            } catch {
                problems.append((application.path, error.message))
            }
        }
        var schemeDefaults: [String: SchemeDefault] = [:]
        for scheme in handlers.defaults.keys {
            guard let application = handlers.defaultApplication(for: scheme) else { continue }
            let names = OpenInPhrase.names(name: application.name, localized: application.names)
            schemeDefaults[scheme] = SchemeDefault(
                activityID: offered.contains(application.desktopID)
                    ? try? ActivityID(application.activityID) : nil,
                name: names.name, names: names.names)
        }
        return Loaded(activities: activities, schemeDefaults: schemeDefaults, problems: problems)
    }

    private func activity(for application: DesktopApplication, schemes: [String], launch: DesktopLaunch)
        throws(ActivityError) -> Activity
    {
        let names = OpenInPhrase.names(name: application.name, localized: application.names)
        return Activity(
            id: try ActivityID(application.activityID), name: names.name, names: names.names,
            icon: application.icon ?? "application-x-executable", category: .action, origin: .desktop,
            match: try ActivityKit.MatchRule(schemes: schemes),
            requires: Requirements(executables: [], dbusNames: []),
            perform: try perform(launch), owner: nil)
    }

    /// The perform spec of a launch: the Exec argv, inside each terminal in turn when
    /// `Terminal=true` (the first on PATH is used; none means unavailable).
    private func perform(_ launch: DesktopLaunch) throws(ActivityError) -> PerformSpec {
        switch launch {
        case .exec(let argv, let directory, let terminal):
            let templates = try argv.map { argument throws(ActivityError) in try Template(argument) }
            guard terminal else { return .exec(try ExecSpec(argv: templates, workingDirectory: directory)) }
            var candidates: [Candidate] = []
            for prefix in TerminalEmulator.prefixes(environment: environment) {
                let full = try prefix.map { argument throws(ActivityError) in
                    try Template(DesktopExec.escapeBraces(argument))
                }
                candidates.append(
                    Candidate(
                        action: .exec(try ExecSpec(argv: full + templates, workingDirectory: directory))))
            }
            return .candidates(candidates)
        case .dbus(let busName, let objectPath):
            return .application(busName: busName, objectPath: objectPath)
        }
    }

    /// The `*.desktop` files under `directory`, found as GIO finds them (`DirectoryTree`:
    /// through symlinked directories, past unreadable ones), each read with `read`; the ones
    /// that cannot be read, and the directories skipped, are problems (a symlink to a huge
    /// file is one, not a read).
    static func desktopFiles(under directory: String, byteBudget: Int = maximumDirectoryBytes) -> (
        files: [String: String], problems: [(file: String, message: String)]
    ) {
        let listing = DirectoryTree.files(endingIn: ".desktop", under: directory)
        var files: [String: String] = [:]
        var problems = listing.problems.map { (file: $0.path, message: $0.message) }
        var bytes = 0
        for (index, relative) in listing.paths.enumerated() {
            let path = directory + "/" + relative
            guard bytes < byteBudget else {
                let left = listing.paths.count - index
                problems.append(
                    (directory, "\(left) desktop files not read: over \(byteBudget) bytes together"))
                break
            }
            do throws(SystemError) {
                let text = try readFile(path)
                bytes += text.utf8.count
                files[relative] = text
            } catch where error.code == ENOENT {
                continue  // a dangling symlink, or removed meanwhile: nothing installed
            } catch {
                problems.append((path, Self.describe(error)))
            }
        }
        return (files, problems)
    }

    /// A mimeapps.list's text; empty when it is missing (normal) or cannot be read (too
    /// large, unreadable: then a problem, as GIO would read it and the broker does not).
    private static func readMimeApps(_ path: String, problems: inout [(file: String, message: String)])
        -> String
    {
        do throws(SystemError) {
            return try readFile(path)
        } catch where error.code == ENOENT || error.code == ENOTDIR {
            return ""
        } catch {
            problems.append((path, describe(error)))
            return ""
        }
    }

    /// Reads a regular file of at most `maximumFileSize` bytes. The size is that of the file
    /// opened (`fstat`, so a symlink is followed) and no more than the limit is ever read.
    private static func readFile(_ path: String) throws(SystemError) -> String {
        String(decoding: try SystemCalls.readFile(path, limit: maximumFileSize), as: UTF8.self)
    }

    private static func describe(_ error: SystemError) -> String {
        switch (error.operation, error.code) {
        case ("read", EFBIG): return "larger than \(maximumFileSize) bytes"
        case ("open", EINVAL): return "not a regular file"
        default: return error.description
        }
    }
}
