// Writes files atomically: temporary file in the same directory, fsync, rename, fsync the directory.
import Glibc

/// Atomic replacement of small files (state such as usage.json).
///
/// Readers see the old content or the new, never a mix, and after `write` returns the new
/// content survives a crash. Blocking I/O: callers on the loop keep the data small.
public enum AtomicFile {
    /// Replaces the file at `path` with `data`.
    ///
    /// Missing parent directories are created with `directoryPermissions` (0700: state is
    /// private). The file gets `permissions`. A failed write leaves the old file as it was and
    /// no temporary file behind.
    /// - Throws: `SystemError` naming the failed call and path.
    public static func write(
        _ data: [UInt8], to path: String, permissions: mode_t = 0o600, directoryPermissions: mode_t = 0o700
    ) throws(SystemError) {
        let directory = PathName.parent(path)
        try createDirectories(directory, permissions: directoryPermissions)

        let temporary = directory + "/" + temporaryPrefix(of: path) + randomSuffix()
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw SystemError("open", path: temporary) }
        do throws(SystemError) {
            defer { SystemCalls.closeQuietly(fd) }
            // The umask must not loosen or tighten what the caller asked for.
            guard fchmod(fd, permissions) == 0 else { throw SystemError("fchmod", path: temporary) }
            try writeAll(data, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw SystemError("fsync", path: temporary) }
            guard rename(temporary, path) == 0 else { throw SystemError("rename", path: path) }
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// Removes the temporary files `write` left beside `path` when it was killed between
    /// creating one and renaming it (each holds a copy of what was being written), once they
    /// are older than `leftoverAge`: a younger one may be another process's write under way.
    /// Returns how many it removed; a directory that cannot be listed removes nothing.
    @discardableResult
    public static func removeLeftovers(of path: String) -> Int {
        let directory = PathName.parent(path)
        let prefix = temporaryPrefix(of: path)
        let listed = try? SystemCalls.directoryNames(in: directory, limit: maximumEntriesListed) {
            $0.hasPrefix(prefix)
        }
        guard let leftovers = listed else { return 0 }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var removed = 0
        for name in leftovers.names {
            let candidate = directory + "/" + name
            var info = stat()
            guard lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                Int64(now.tv_sec) - Int64(info.st_mtim.tv_sec) >= leftoverAge
            else { continue }
            if unlink(candidate) == 0 { removed += 1 }
        }
        return removed
    }

    /// Seconds a temporary file must have been left unchanged before `removeLeftovers` takes it
    /// for a killed write's.
    public static let leftoverAge: Int64 = 60
    /// Entries `removeLeftovers` looks at, at most (a state directory holds a handful).
    static let maximumEntriesListed = 65_536

    /// `.<name>.tmp-`: what every temporary file of `path` starts with.
    private static func temporaryPrefix(of path: String) -> String {
        "." + PathName.lastComponent(path) + ".tmp-"
    }

    /// Creates `path` and its missing ancestors with `permissions`; existing ones are left as they are.
    /// - Throws: `SystemError` from `mkdir`, or `ENOTDIR` when a component is not a directory.
    public static func createDirectories(_ path: String, permissions: mode_t = 0o700) throws(SystemError) {
        if PathName.isDirectory(path) { return }
        let parent = PathName.parent(path)
        if parent != path { try createDirectories(parent, permissions: permissions) }
        if mkdir(path, permissions) != 0 {
            let code = errno
            // Another process may have created it meanwhile.
            if code == EEXIST && PathName.isDirectory(path) { return }
            throw SystemError("mkdir", path: path, code: code == EEXIST ? ENOTDIR : code)
        }
    }

    private static func writeAll(_ data: [UInt8], to fd: Int32, path: String) throws(SystemError) {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError("write", path: path)
            }
            offset += written
        }
    }

    /// Makes the rename durable. Failures are ignored: some file systems cannot fsync a
    /// directory, and the data itself is already safe.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        SystemCalls.closeQuietly(fd)
    }

    private static func randomSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
