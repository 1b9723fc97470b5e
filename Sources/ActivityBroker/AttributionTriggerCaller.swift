// AttributionTriggerCaller: whether a process runs the `share` executable installed beside the broker.
import ActivityBrokerInterface
import Glibc
import SystemSupport

/// The process check behind `Broker1.ReportAttributionTrigger` (API.md §11): only the terminal's
/// browsing session, `share browse`, may report a trigger it saw, and the broker knows it by the
/// executable its process runs.
///
/// The file is compared by identity (device and inode), not by path: `/proc/PID/exe` leads to
/// the file the process was started from whatever path it was run by, also from another mount
/// namespace, and a copy of `share` elsewhere (or a script named `share`) is another file.
/// Blocking reads of `/proc` and one `stat`: small, on the broker's loop.
///
/// What it cannot tell, by design of the threat model in docs/click-measurement.md: a process
/// of the user's own that is not confined to the bus (it can start `share` under a debugger or
/// with a preloaded library, or simply write `attribution.json`) is as trusted as the user.
struct AttributionTriggerCaller: Sendable {
    /// `share`, in the broker's own directory.
    let expectedExecutable: String

    /// The `share` beside the running broker (`/proc/self/exe`'s directory): nil when the
    /// broker's own path cannot be read, and then no process is accepted.
    static func besideBroker() -> AttributionTriggerCaller? {
        guard var own = PathName.symbolicLinkTarget("/proc/self/exe") else {
            return nil
        }
        // The kernel marks a replaced binary (a package upgrade under a running broker).
        if own.hasSuffix(" (deleted)") { own.removeLast(" (deleted)".count) }
        let directory = directoryName(own)
        return AttributionTriggerCaller(
            expectedExecutable: directory + "/" + Broker1.triggerReporterExecutable)
    }

    /// Whether process `pid` runs `expectedExecutable`. False when either cannot be looked at
    /// (the process is gone, or a zombie whose `exe` link is empty).
    func runsExpectedExecutable(pid: UInt32) -> Bool {
        guard let expected = Self.identity(expectedExecutable), let actual = Self.identity("/proc/\(pid)/exe")
        else { return false }
        return expected == actual
    }

    /// Whether the pidfd `fd` still stands for a living process numbered `pid`: its
    /// `/proc/self/fdinfo` line `Pid:` is the number while the process lives, -1 once it has
    /// been reaped. A living pidfd means the number was not handed to another process since
    /// the pidfd was made, so what was read under `/proc/<pid>` before this call was its.
    static func pidfd(_ fd: Int32, standsFor pid: UInt32) -> Bool {
        guard let data = try? SystemCalls.readFile("/proc/self/fdinfo/\(fd)", limit: 4096) else {
            return false
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Pid:") }
        return line.flatMap { Int($0.dropFirst(4).trimmingSpaces()) } == Int(pid)
    }

    /// Device and inode of the file at `path`, links followed.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
