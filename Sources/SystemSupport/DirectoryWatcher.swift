// Watches directories with inotify, including ones that do not exist yet, and reports changes debounced.
import Dispatch
import Glibc

/// Reports "something changed in these directories" through inotify, debounced.
///
/// A directory that does not exist (yet) is covered by watching its nearest existing
/// ancestor for the next path component; when it appears, is deleted, or is moved away, the
/// watches are re-armed and the directory is reported as changed (its contents appeared or
/// went). Not recursive. Renaming an ancestor of an existing watched directory goes unseen.
///
/// A directory can be given a `NameFilter`: then only events about matching names in it (and
/// about the directory itself) count, so a busy directory such as `~/.config` costs nothing
/// when files other than the few of interest change.
///
/// Confined to `queue`: the inotify source, the debounce timer and `onChange` run there;
/// `update(directories:)` and `cancel()` must be called there. Create it anywhere.
public final class DirectoryWatcher: @unchecked Sendable {
    /// Which names inside a watched directory count as a change.
    public struct NameFilter: Hashable, Sendable {
        /// Names that count as they are.
        public var names: Set<String>
        /// Name endings that count (e.g. `-mimeapps.list`).
        public var suffixes: [String]

        public init(names: Set<String>, suffixes: [String] = []) {
            self.names = names
            self.suffixes = suffixes
        }

        /// Whether an event about `name` counts.
        public func matches(_ name: String) -> Bool {
            names.contains(name) || suffixes.contains { name.hasSuffix($0) }
        }
    }

    /// What happens inside a watched directory that counts as a change.
    static let contentMask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// What an ancestor is watched for: the next component appearing, or the ancestor going.
    static let ancestorMask = UInt32(
        IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// One inotify watch: the targets it watches directly, and targets waiting below it by the
    /// name of the next path component.
    private struct Watch {
        var path: String
        var targets: Set<String> = []
        var waiting: [String: Set<String>] = [:]
    }

    private let queue: DispatchQueue
    private let debounce: DispatchTimeInterval
    private let maximumDelay: DispatchTimeInterval
    private let onChange: @Sendable (Set<String>) -> Void
    private let fd: Int32
    private let source: DispatchSourceRead
    private var targets: [String]
    /// Normalized target → its filter; a target without one counts every name.
    private var filters: [String: NameFilter] = [:]
    private let onProblem: (@Sendable (String) -> Void)?
    /// Directories whose watch could not be added, with the errno: each is reported once
    /// until it can be watched again, not at every re-arm.
    private var unwatchable: [String: Int32] = [:]
    private var watches: [Int32: Watch] = [:]
    private var pending: Set<String> = []
    private var timer: DispatchSourceTimer?
    private var firstPending = DispatchTime.now()
    private var cancelled = false

    /// Starts watching `directories` (absolute paths; normalized, duplicates dropped).
    ///
    /// `onChange` gets the watched directories that changed, after `debounce` seconds without
    /// further events (a steady stream still reports every 10 × `debounce`). `filters` limits
    /// which names count inside some of `directories` (keys are normalized like them).
    /// `onProblem` gets one line (on the queue, or in `init`) when a directory cannot be watched (`EACCES`,
    /// `ENOSPC`: the inotify watch limit); the other directories are still watched.
    /// - Throws: `SystemError` when inotify cannot be initialized (e.g. the instance limit).
    public init(
        directories: [String], filters: [String: NameFilter] = [:], queue: DispatchQueue,
        debounce: Double = 0.1, onProblem: (@Sendable (String) -> Void)? = nil,
        onChange: @escaping @Sendable (Set<String>) -> Void
    ) throws(SystemError) {
        self.queue = queue
        self.debounce = .nanoseconds(Int(debounce * 1e9))
        self.maximumDelay = .nanoseconds(Int(debounce * 10e9))
        self.onChange = onChange
        self.onProblem = onProblem
        targets = Self.normalize(directories)
        self.filters = Self.normalize(filters)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let fd = fd
        source.setCancelHandler { SystemCalls.closeQuietly(fd) }
        // Armed before the source runs, so nothing else touches the state concurrently.
        rearm()
        source.setEventHandler { [weak self] in self?.readEvents() }
        source.resume()
    }

    deinit {
        if !cancelled { source.cancel() }
        timer?.cancel()
    }

    /// The watched directories, normalized.
    public var directories: [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        return targets
    }

    /// Replaces the set of watched directories (e.g. PATH changed); the caller rescans what it
    /// added, which is not reported. Call on the queue.
    public func update(directories: [String]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled else { return }
        targets = Self.normalize(directories)
        rearm()
    }

    /// Stops watching; no `onChange` runs after this returns. Call on the queue.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled else { return }
        cancelled = true
        timer?.cancel()
        timer = nil
        source.cancel()
    }

    // MARK: Watches

    /// Brings the inotify watches in line with `targets`: each target itself when it is a
    /// directory, else its nearest existing ancestor. Repeats when a directory appeared while
    /// it was arming, since its creation event may have been missed. Returns the targets that
    /// appeared or disappeared as directories, which changed even if no event said so.
    @discardableResult
    private func rearm() -> Set<String> {
        let before = Set(watches.values.flatMap(\.targets))
        for _ in 0..<8 {
            var plan: [String: Watch] = [:]
            for target in targets {
                var path = target
                var child: String?
                while !PathName.isDirectory(path) && path != "/" {
                    child = PathName.lastComponent(path)
                    path = PathName.parent(path)
                }
                if let child {
                    plan[path, default: Watch(path: path)].waiting[child, default: []].insert(target)
                } else {
                    plan[path, default: Watch(path: path)].targets.insert(target)
                }
            }
            var armed: [Int32: Watch] = [:]
            var stale = false
            for (path, watch) in plan {
                let mask = watch.targets.isEmpty ? Self.ancestorMask : Self.contentMask | Self.ancestorMask
                // IN_MASK_ADD: a second path to the same directory (a symlink) must not narrow
                // the mask the first one set; extra events are filtered in `handle`.
                let wd = inotify_add_watch(fd, path, mask | UInt32(IN_MASK_ADD))
                if wd < 0 {
                    // Gone since it was checked: plan again. Other errors (EACCES, ENOSPC)
                    // leave this path unwatched rather than failing every directory.
                    let code = errno
                    if code == ENOENT || code == ENOTDIR {
                        stale = true
                    } else if unwatchable.updateValue(code, forKey: path) != code {
                        onProblem?(
                            "\(SystemError("inotify_add_watch", path: path, code: code)); its changes go unseen"
                        )
                    }
                    continue
                }
                unwatchable[path] = nil
                // Two paths can be one directory (symlinks); inotify gives it one wd.
                var merged = armed[wd] ?? Watch(path: path)
                merged.targets.formUnion(watch.targets)
                merged.waiting.merge(watch.waiting) { $0.union($1) }
                armed[wd] = merged
            }
            for watch in armed.values {
                for child in watch.waiting.keys where PathName.isDirectory(PathName.join(watch.path, child)) {
                    stale = true
                }
            }
            for wd in watches.keys where armed[wd] == nil {
                _ = inotify_rm_watch(fd, wd)
            }
            watches = armed
            if !stale { break }
        }
        return before.symmetricDifference(watches.values.flatMap(\.targets))
    }

    private func readEvents() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled else { return }
        var changed: Set<String> = []
        var needsRearm = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = 16  // struct inotify_event: wd, mask, cookie, len
                while offset + headerSize <= count {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + headerSize)..<min(count, offset + headerSize + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += headerSize + length
                    handle(wd: wd, mask: mask, name: name, changed: &changed, needsRearm: &needsRearm)
                }
            }
        }
        if needsRearm { changed.formUnion(rearm()) }
        if !changed.isEmpty { schedule(changed) }
    }

    private func handle(
        wd: Int32, mask: UInt32, name: String, changed: inout Set<String>, needsRearm: inout Bool
    ) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: assume everything changed.
            changed.formUnion(targets)
            needsRearm = true
            return
        }
        // Unknown wd: one we removed ourselves (its IN_IGNORED) or already replaced.
        guard let watch = watches[wd] else { return }
        // An event without a name is about the directory itself, and always counts.
        for target in watch.targets where name.isEmpty || filters[target]?.matches(name) != false {
            changed.insert(target)
        }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 {
            needsRearm = true
            for waiting in watch.waiting.values { changed.formUnion(waiting) }
        } else if !name.isEmpty, let waiting = watch.waiting[name] {
            // The next component toward a missing target appeared or changed.
            needsRearm = true
            changed.formUnion(waiting)
        }
    }

    // MARK: Debounce

    private func schedule(_ changed: Set<String>) {
        pending.formUnion(changed)
        let now = DispatchTime.now()
        if let timer {
            timer.schedule(deadline: min(now + debounce, firstPending + maximumDelay))
            return
        }
        firstPending = now
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: now + debounce)
        timer.setEventHandler { [weak self] in self?.fire() }
        self.timer = timer
        timer.resume()
    }

    private func fire() {
        guard !cancelled else { return }
        timer?.cancel()
        timer = nil
        let changed = pending
        pending = []
        // A target dropped by `update` while pending is not reported.
        let current = changed.intersection(targets)
        if !current.isEmpty { onChange(current) }
    }

    // MARK: Paths

    static func normalize(_ filters: [String: NameFilter]) -> [String: NameFilter] {
        var result: [String: NameFilter] = [:]
        for (path, filter) in filters {
            guard let normalized = normalize([path]).first else { continue }
            result[normalized] = filter
        }
        return result
    }

    /// `paths` made absolute-normal (no `.`, `..`, repeated or trailing `/`) as the watcher
    /// compares them, duplicates and relative paths dropped.
    package static func normalize(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for path in paths where path.hasPrefix("/") {
            var components: [Substring] = []
            for component in path.split(separator: "/") where component != "." {
                if component == ".." { _ = components.popLast() } else { components.append(component) }
            }
            let normalized = "/" + components.joined(separator: "/")
            if seen.insert(normalized).inserted { result.append(normalized) }
        }
        return result
    }
}
