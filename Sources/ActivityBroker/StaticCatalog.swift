// The static activities: manifests from the XDG and built-in directories, and installed
// applications' desktop entries, reloaded when those directories change.
import ActivityKit
import Foundation
import SystemSupport

/// Reads manifest and application directories into the registry's static layers.
///
/// Loop-confined. Reading happens at start and when the watcher reports a change (never on
/// a request). A broken file is skipped with one log line naming the file and the field;
/// the same broken file is not logged again until its error changes.
final class StaticCatalog: @unchecked Sendable {
    private let manifestDirectories: [(origin: ActivityOrigin, path: String)]
    private let applications: DesktopApplicationsSource
    private let queue: DispatchQueue
    private let log: BrokerLog
    private var watcher: DirectoryWatcher?
    private var reportedProblems: [String: String] = [:]

    /// Called on the loop with the new layers, highest precedence first.
    /// The second argument is each URL scheme's default application.
    var onChange: (([StaticLayer], [String: SchemeDefault]) -> Void)?

    init(
        paths: XDGPaths, environment: [String: String], builtinDirectories: [String], machine: MachineEnvironment,
        queue: DispatchQueue, log: BrokerLog
    ) {
        var directories: [(ActivityOrigin, String)] = []
        let manifestDirectories = paths.manifestDirectories
        if let user = manifestDirectories.first { directories.append((.user, user)) }
        // An installed broker's own `$datadir/activity-broker/extensions` is also an
        // XDG_DATA_DIRS entry: read it once, as the built-ins it holds, not as `system`.
        let builtins = Set(builtinDirectories.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        directories += manifestDirectories.dropFirst().filter { !builtins.contains($0) }.map { (.system, $0) }
        directories += builtinDirectories.map { (.builtin, $0) }
        self.manifestDirectories = directories
        self.applications = DesktopApplicationsSource(environment: environment, machine: machine)
        self.queue = queue
        self.log = log
    }

    /// Loads everything once (calling `onChange`) and starts watching.
    func start() {
        reload()
        let watched = manifestDirectories.map(\.path) + applications.watchedDirectories
        do {
            watcher = try DirectoryWatcher(directories: watched, queue: queue) { [unowned self] _ in
                reload()
            }
        } catch {
            log.event("cannot watch manifest directories (\(error)); changes need a restart")
        }
    }

    /// Reads every directory again and hands the layers on.
    func reload() {
        var layers = manifestDirectories.map { directory in
            StaticLayer(origin: directory.origin, entries: loadManifests(in: directory.path, origin: directory.origin))
        }
        let loaded = applications.load()
        for problem in loaded.problems { report(problem.file, problem.message) }
        layers.append(
            StaticLayer(
                origin: .desktop,
                entries: Dictionary(loaded.activities.map { ($0.id.rawValue + ".desktop", StaticEntry.activity($0)) }) {
                    first, _ in first
                }))
        onChange?(layers, loaded.schemeDefaults)
    }

    private func loadManifests(in directory: String, origin: ActivityOrigin) -> [String: StaticEntry] {
        let listing = ManifestDirectoryReader().read(directory: directory)
        for (fileName, error) in listing.errors { report(directory + "/" + fileName, "\(error)") }
        var entries: [String: StaticEntry] = [:]
        for (fileName, data) in listing.files {
            let path = directory + "/" + fileName
            if Manifest.isMask(data) {
                entries[fileName] = .masked
                continue
            }
            do {
                entries[fileName] = .activity(try Manifest.decode(data, fileName: fileName, origin: origin))
                reportedProblems[path] = nil
            } catch {
                report(path, error.message)
            }
        }
        return entries
    }

    private func report(_ path: String, _ message: String) {
        guard reportedProblems[path] != message else { return }
        reportedProblems[path] = message
        log.event("skipped \(path): \(message)")
    }
}
