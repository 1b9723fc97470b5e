// Thin wrappers over Linux calls: GNU extensions reached through dlsym, and small I/O helpers.
import Glibc

/// Thin wrappers over GNU/Linux functions reached through `dlsym`, because Swift's Glibc
/// module is built without `_GNU_SOURCE` and so does not declare them.
package enum SystemCalls {
    /// `POSIX_SPAWN_SETSID` from `<spawn.h>` (glibc ≥ 2.26), a GNU extension.
    package static let spawnSetSID: Int32 = 0x80

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        // RTLD_DEFAULT is the null handle on glibc.
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }

    private static let pipe2Function = symbol("pipe2", as: Pipe2.self)
    private static let pidfdOpenFunction = symbol("pidfd_open", as: PidfdOpen.self)
    private static let addCloseFromFunction = symbol(
        "posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdirFunction = symbol("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)

    /// `pipe2(fds, O_CLOEXEC)`: a pipe whose ends no child inherits unless dup'ed onto 0–2.
    /// Falls back to `pipe` + `FD_CLOEXEC` (racy against other threads' forks) without `pipe2`.
    package static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let result = fds.withUnsafeMutableBufferPointer { buffer -> Int32 in
            if let pipe2Function { return pipe2Function(buffer.baseAddress!, O_CLOEXEC) }
            let result = pipe(buffer.baseAddress!)
            if result == 0 {
                _ = fcntl(buffer[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(buffer[1], F_SETFD, FD_CLOEXEC)
            }
            return result
        }
        guard result == 0 else { throw SystemError("pipe2") }
        return (fds[0], fds[1])
    }

    /// `pidfd_open(pid, 0)` (Linux ≥ 5.3): a descriptor that becomes readable when `pid` exits.
    /// Returns nil when the kernel or libc lacks it; the caller then falls back to SIGCHLD.
    package static func pidfdOpen(_ pid: pid_t) -> Int32? {
        guard let pidfdOpenFunction else { return nil }
        let fd = pidfdOpenFunction(pid, 0)
        return fd >= 0 ? fd : nil
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, from)` (glibc ≥ 2.34): the child closes
    /// every descriptor ≥ `from`. Returns false when unavailable.
    package static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Bool {
        guard let addCloseFromFunction else { return false }
        return addCloseFromFunction(actions, from) == 0
    }

    /// `posix_spawn_file_actions_addchdir_np(actions, path)` (glibc ≥ 2.29): the child changes
    /// to `path` before the exec. Returns false when unavailable.
    package static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Bool {
        guard let addChdirFunction else { return false }
        return addChdirFunction(actions, path) == 0
    }

    /// Sets `O_NONBLOCK` on a descriptor's open file description (only this end of a pipe).
    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// The names in `directory` that `keep` accepts, in `readdir`'s order, `.` and `..` left
    /// out; at most `limit` names are read (kept or not), and `truncated` says more were there.
    /// - Throws: `SystemError` from `opendir` (`ENOENT` for a missing directory).
    package static func directoryNames(
        in directory: String, limit: Int, keep: (String) -> Bool = { _ in true }
    ) throws(SystemError) -> (names: [String], truncated: Bool) {
        guard let stream = opendir(directory) else { throw SystemError("opendir", path: directory) }
        defer { closedir(stream) }
        var names: [String] = []
        var seen = 0
        while let entry = readdir(stream) {
            let name = DirectoryEntryName.of(entry)
            if name == "." || name == ".." { continue }
            guard seen < limit else { return (names, true) }
            seen += 1
            if keep(name) { names.append(name) }
        }
        return (names, false)
    }

    /// Reads a whole regular file, at most `limit` bytes.
    /// - Throws: `SystemError` from `open`/`read`; `EFBIG` ("read") when the file is larger than
    ///   `limit`; `EINVAL` ("open") when it is not a regular file (a FIFO would block the loop).
    package static func readFile(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; no effect on regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        defer { closeQuietly(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError("fstat", path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw SystemError("open", path: path, code: EINVAL) }
        guard Int(info.st_size) <= limit else { throw SystemError("read", path: path, code: EFBIG) }
        // Read straight into the result, sized by fstat plus one byte to see the end of file
        // (or growth) without a second buffer; it grows if the file did.
        var data = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                // The file may have grown since fstat.
                guard filled <= limit else { throw SystemError("read", path: path, code: EFBIG) }
                data.append(contentsOf: repeatElement(0, count: min(max(filled, 4_096), limit + 1 - filled)))
            }
            let count = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError("read", path: path)
            }
            filled += count
            guard filled <= limit else { throw SystemError("read", path: path, code: EFBIG) }
        }
        data.removeLast(data.count - filled)
        return data
    }

    /// Writes all of `bytes` to `fd` with write(2), through short writes, EINTR and a
    /// non-blocking descriptor's EAGAIN (waiting up to a second at a time for room); returns
    /// the errno that stopped it (EPIPE: the reader went away), nil once everything went.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN:
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 1000)
            default:
                return code
            }
        }
        return nil
    }

    /// `close` that retries nothing: on Linux the descriptor is gone even after EINTR.
    package static func closeQuietly(_ fd: Int32) {
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
