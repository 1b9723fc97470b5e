// A FUSE file system whose one file never answers a read until released: a hung mount, for tests.
import Foundation
import Glibc
import SystemSupport

/// `scripts/hanging-mount.py` mounted on a temporary directory: one file, `hanging.json`, whose
/// stat answers at once and whose every read blocks until `release()`, as a file on a hung NFS
/// server or behind a stuck FUSE daemon does; a thread reading it cannot be woken. Readiness
/// barrier: the "ready" line the script prints once mounted.
///
/// Needs /dev/fuse and Debian's python3-fusepy (`isAvailable`). Unmounted (lazily) on `deinit`.
public final class HangingMount: Sendable {
    /// Why a test of a hung mount cannot run here, or nil when it can.
    public static let unavailable: String? = {
        guard access("/dev/fuse", R_OK | W_OK) == 0 else { return "no /dev/fuse" }
        guard
            let run = try? ChildProcess(executable: "/usr/bin/python3", arguments: ["-c", "import fusepy"]),
            (try? run.waitForExit(deadline: .seconds(30))) == .exited(0)
        else { return "no python3-fusepy for /usr/bin/python3" }
        return nil
    }()

    /// The mount point.
    public let directory: String
    /// The file whose reads block.
    public var file: String { directory + "/hanging.json" }
    private let process: ChildProcess
    private let scratch: TemporaryDirectory

    /// Mounts a file of `content` whose reads wait for `release()`.
    public init(content: String) async throws {
        scratch = try TemporaryDirectory(prefix: "hanging-mount")
        directory = scratch.path + "/mnt"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: [repositoryRoot + "/scripts/hanging-mount.py", directory, content],
            standardInput: .pipe)
        _ = try await process.nextLine(deadline: .seconds(30)) { $0 == "ready" }
    }

    /// Lets every read, waiting or to come, return the content.
    public func release() throws {
        try process.write("release\n")
    }

    deinit {
        // Reads still blocked return once the daemon is gone (ENOTCONN); then the lazy unmount.
        process.kill()
        _ = try? process.waitForExit(deadline: .seconds(10))
        _ = try? ChildProcess(executable: "umount", arguments: ["-l", directory]).waitForExit(
            deadline: .seconds(10))
        scratch.remove()
    }
}
