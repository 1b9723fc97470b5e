// The static activities: manifests from the XDG and built-in directories, and installed
// applications' desktop entries, reloaded when those directories change.
import ActivityKit
import Dispatch
import Glibc
import Locking
import SystemSupport

/// Reads manifest and application directories into the registry's static layers.
///
/// Loop-confined, except the reading itself, which happens on `readQueue`: at start the loop
/// waits for the first read up to `firstReadSeconds` (before the name is owned, nothing else
/// waits), and a reload after a change report is read and parsed there and its result applied
/// on the loop, so 100k manifests never stop the broker answering. One read runs at a time;
/// changes reported meanwhile cause one more.
///
/// A read can hang: a manifest or desktop entry that is a symlink into a file system that stopped
/// answering (a hung NFS server, a stuck FUSE daemon) blocks read(2) for good, and a blocked
/// thread cannot be woken. So the first read has a deadline: past it the broker starts without
/// the static catalog, and applies it if the read ever ends. The directories are watched from
/// then on (watching them may block as reading them did).
///
/// A broken file is skipped with one log line naming the file and the field; the same broken
/// file is not logged again until its error changes.
final class StaticCatalog: @unchecked Sendable {
    private let reader: CatalogReader
    private let applications: DesktopApplicationsSource
    private let queue: DispatchQueue
    private let readQueue = DispatchQueue(label: "activity-broker.catalog")
    private let log: BrokerLog
    private var watcher: DirectoryWatcher?
    /// The problems of the last read, each logged once: a file's next read with the same
    /// problem logs nothing, and one no longer a problem (fixed, deleted) is forgotten.
    private var reportedProblems: Set<Problem> = []
    private struct Problem: Hashable {
        var file: String
        var message: String
    }
    /// A digest of what was handed to `onChange` last (`Applied`). Confined to `readQueue`,
    /// where it is made and compared: hashing 10,000 activities is kept off the loop, and off
    /// the way to owning the name at start.
    private var applied: Applied?
    private var reading = false
    private var changedWhileReading = false

    /// Called on the loop with the new layers, highest precedence first.
    /// The second argument is each URL scheme's default application.
    var onChange: (([StaticLayer], [String: SchemeDefault]) -> Void)?

    init(
        paths: XDGPaths, environment: [String: String], builtinDirectories: [String],
        machine: MachineEnvironment,
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
        self.applications = DesktopApplicationsSource(environment: environment, machine: machine)
        self.reader = CatalogReader(manifestDirectories: directories, applications: applications)
        self.queue = queue
        self.log = log
    }

    /// How long start waits for the first read, in seconds: 10,000 manifests take 0.1–0.2 s here.
    static let firstReadSeconds = 3

    /// Loads everything once (calling `onChange`), within `firstReadSeconds`, and starts
    /// watching; past the deadline it returns without, and both happen when the read ends.
    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        let first = FirstRead()
        let reader = reader
        reading = true
        readQueue.async { [self] in
            let read = reader.read()
            applied = Applied(read.layers, read.schemeDefaults)
            guard !first.hand(read) else { return }
            queue.async { [self] in
                log.event("the static catalog was read at last")
                finishFirstRead(read)
            }
        }
        guard let read = first.take(within: .seconds(Self.firstReadSeconds)) else {
            return log.event(
                "the manifest and application directories were not read within \(Self.firstReadSeconds) s "
                    + "(a file system that does not answer?); serving without them until they are")
        }
        finishFirstRead(read)
    }

    /// Applies the first read and starts watching (on the loop), then a reload asked for meanwhile.
    private func finishFirstRead(_ read: CatalogReader.Result) {
        dispatchPrecondition(condition: .onQueue(queue))
        reading = false
        apply(read)
        watch()
        if changedWhileReading {
            changedWhileReading = false
            reload()
        }
    }

    /// Starts watching the directories for changes, which `reload`s.
    private func watch() {
        let watched = reader.manifestDirectories.map(\.path) + applications.watchedDirectories
        do {
            let log = log
            // A directory that is both (an odd XDG setting) counts every name.
            var filters = applications.watchFilters
            for directory in DirectoryWatcher.normalize(reader.manifestDirectories.map(\.path)) {
                filters[directory] = nil
            }
            watcher = try DirectoryWatcher(
                directories: watched, filters: filters, queue: queue,
                onProblem: { log.event(BrokerLog.printable($0)) }
            ) { [unowned self] changed in
                reload(changed: changed)
            }
        } catch {
            log.event(
                "cannot watch manifest directories (\(BrokerLog.printable("\(error)"))); changes need a restart"
            )
        }
    }

    /// Reads every directory again off the loop and hands the layers on, on the loop.
    /// `changed` (the directories the watcher reported) is named in the debug log.
    func reload(changed: Set<String> = []) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !reading else {
            changedWhileReading = true
            return
        }
        reading = true
        let directories = changed.sorted().map { BrokerLog.printable($0) }.joined(separator: ", ")
        log.debug("reading the static catalog again" + (changed.isEmpty ? "" : " (changed: \(directories))"))
        let reader = reader
        readQueue.async { [self] in
            let read = reader.read()
            // Compared here, off the loop: a reload that found what is loaded already (a
            // temporary file, an unrelated file) changes nothing and announces nothing. What
            // changed is applied on the loop next, reads in order: it is what the next compares with.
            let digest = Applied(read.layers, read.schemeDefaults)
            let unchanged = applied == digest
            if !unchanged { applied = digest }
            queue.async { [self] in
                reading = false
                apply(read, announce: !unchanged)
                if changedWhileReading {
                    changedWhileReading = false
                    reload()
                }
            }
        }
    }

    private func apply(_ read: CatalogReader.Result, announce: Bool = true) {
        // What is not a problem now (fixed, or deleted) is forgotten: logged again if it breaks
        // again, and the table holds no more than this read's problems.
        let before = reportedProblems
        reportedProblems = []
        for problem in read.problems {
            let key = Problem(file: problem.file, message: problem.message)
            if reportedProblems.insert(key).inserted && !before.contains(key) {
                log.event(
                    "skipped \(BrokerLog.printable(problem.file)): \(BrokerLog.printable(problem.message))")
            }
        }
        guard announce else { return log.debug("the static catalog is unchanged") }
        onChange?(read.layers, read.schemeDefaults)
        // The read's garbage (file contents, JSON trees, the interning tables) is freed by now,
        // in every worker's malloc arena: give its pages back rather than keep them resident.
        FreeMemory.release()
    }
}

/// The reading and parsing half of `StaticCatalog`: no state, so it runs on any thread.
struct CatalogReader: Sendable {
    /// What one read found.
    struct Result: Sendable {
        var layers: [StaticLayer] = []
        var schemeDefaults: [String: SchemeDefault] = [:]
        /// Files skipped, and why.
        var problems: [(file: String, message: String)] = []
    }

    let manifestDirectories: [(origin: ActivityOrigin, path: String)]
    let applications: DesktopApplicationsSource

    func read() -> Result {
        var result = Result()
        for directory in manifestDirectories {
            let loaded = ManifestLoader(directory: directory.path, origin: directory.origin).load()
            result.layers.append(StaticLayer(origin: directory.origin, entries: loaded.entries))
            result.problems += loaded.problems
        }
        let loaded = applications.load()
        result.problems += loaded.problems
        result.layers.append(
            StaticLayer(
                origin: .desktop,
                entries: Dictionary(
                    loaded.activities.map { ($0.id.rawValue + ".desktop", StaticEntry.activity($0)) }
                ) {
                    first, _ in first
                }))
        result.schemeDefaults = loaded.schemeDefaults
        return result
    }
}

/// The first read's hand-over between the reading queue and `StaticCatalog.start`, which waits
/// for it only so long: the result goes to `start` when it comes in time, and otherwise stays
/// with the reader to apply; never to both.
private final class FirstRead: Sendable {
    private enum State {
        case waiting
        case handed(CatalogReader.Result)
        case late
    }
    private let state = Locked(State.waiting)
    private let handed = DispatchSemaphore(value: 0)

    /// The reader's: true when `take` gets `read` (it was not too late); false when `take` gave
    /// up, and applying `read` is the caller's.
    func hand(_ read: CatalogReader.Result) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            state = .handed(read)
            return true
        }
        if taken { handed.signal() }
        return taken
    }

    /// `start`'s: the read if it was handed within `deadline`; nil, and never again, otherwise.
    func take(within deadline: DispatchTimeInterval) -> CatalogReader.Result? {
        _ = handed.wait(timeout: .now() + deadline)
        return state.withLock { state -> CatalogReader.Result? in
            if case .handed(let read) = state { return read }
            state = .late
            return nil
        }
    }
}
