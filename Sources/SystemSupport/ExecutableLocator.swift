// Finds programs on a PATH string, with a cache the broker invalidates when PATH directories change.
import Glibc
import Locking

/// Looks up executables the way `execvp` would, but only in absolute PATH directories.
///
/// Thread-safe (the cache is behind a lock), so the same locator can serve the loop and the
/// launcher. Results are cached per PATH string; call `invalidate()` when a directory of
/// `directories(in:)` changes (the broker watches them with `DirectoryWatcher`).
public final class ExecutableLocator: Sendable {
    private let cache = Locked<[String: [String: String?]]>([:])

    /// The search path used when the environment has no PATH (as glibc's `execvp` minus ".").
    public static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    public init() {}

    /// The directories of a PATH string in search order: absolute entries only, duplicates
    /// dropped. Empty and relative entries (which mean "relative to the working directory")
    /// are ignored on purpose: a session service must not run programs from wherever it stands.
    public static func directories(in path: String) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for entry in path.split(separator: ":", omittingEmptySubsequences: true) {
            var directory = String(entry)
            guard directory.hasPrefix("/") else { continue }
            while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
            if seen.insert(directory).inserted { result.append(directory) }
        }
        return result
    }

    /// Whether `path` names an executable regular file (symlinks followed).
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// The absolute path of `name` on `path`, or nil; answers come from the cache when it has one.
    ///
    /// A `name` containing a slash is not searched: it is returned when it is an executable
    /// file itself. An empty name is never found.
    public func find(_ name: String, path: String) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return Self.search(name, path: path) }
        if let cached = cache.withLock({ $0[path]?[name] }) { return cached }
        let found = Self.search(name, path: path)
        cache.withLock { $0[path, default: [:]][name] = .some(found) }
        return found
    }

    /// `find` without the cache: looks at the file system now.
    public static func search(_ name: String, path: String) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for directory in directories(in: path) {
            let candidate = directory == "/" ? "/" + name : directory + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Looks `name` up on the PATH of `environment` (default: the process environment).
    public func find(_ name: String, environment: [String: String] = ProcessEnvironment.current) -> String? {
        find(name, path: environment["PATH"] ?? Self.defaultPath)
    }

    /// Forgets every cached answer, found or not.
    public func invalidate() {
        cache.withLock { $0.removeAll() }
    }
}
