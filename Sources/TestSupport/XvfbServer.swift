// A private X server (Xvfb) for one test: picks a free display itself, dies with the test process.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Xvfb -displayfd 3 -nolisten tcp`, run under a `/bin/sh` guard reading a pipe from this
/// process (as `TestBus` does): when the test process ends, however it ends, the pipe closes and
/// the guard kills the server. Readiness is the display number Xvfb writes to fd 3 once it
/// accepts connections: no polling, no sleeps.
///
/// `init` and `stop()` block: async tests use `start(...)` and `stopOffPool()`, which block a
/// thread of their own instead of a concurrency-pool thread (`offPool`). Released without a
/// stop, the server stops in the background (`BackgroundCleanup`).
public final class XvfbServer: @unchecked Sendable, BlockingStop {
    /// `:N`.
    public let display: String
    private let guardProcess: ChildProcess
    private let stopped = Locked(false)

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(width: Int = 1280, height: Int = 800, deadline: Deadline = .standard) throws {
        let script = """
            "$@" </dev/null &
            server=$!
            exec 3>&-
            while read -r _; do :; done
            kill -TERM "$server" 2>/dev/null
            wait "$server"
            """
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw StartError(description: "pipe failed") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        defer { close(fds[0]) }
        do {
            guardProcess = try ChildProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c", script, "xvfb-guard", "Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-screen", "0",
                    "\(width)x\(height)x24",
                ],
                standardInput: .pipe, fileDescriptors: [3: fds[1]])
        } catch {
            close(fds[1])
            throw error
        }
        close(fds[1])
        guard let number = ReadinessLine.read(fds[0], deadline: deadline), Int(number) != nil else {
            guardProcess.closeStandardInput()
            guardProcess.kill()
            throw StartError(description: "Xvfb did not report a display: \(guardProcess.standardError)")
        }
        display = ":" + number
    }

    /// `init` on a thread of its own (`offPool`): for async tests.
    public static func start(
        width: Int = 1280, height: Int = 800, deadline: Deadline = .standard
    ) async throws -> XvfbServer {
        try await offPool { try XvfbServer(width: width, height: height, deadline: deadline) }
    }

    deinit {
        guard markStopped() else { return }
        let guardProcess = guardProcess
        BackgroundCleanup.run { Self.shutDown(guardProcess) }
    }

    /// Stops the server (closing the guard's pipe) and waits for the guard. Idempotent.
    public func stop() {
        guard markStopped() else { return }
        Self.shutDown(guardProcess)
    }

    /// Whether this call is the first to stop the server.
    private func markStopped() -> Bool {
        stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
    }

    private static func shutDown(_ guardProcess: ChildProcess) {
        guardProcess.closeStandardInput()
        if (try? guardProcess.waitForExit(deadline: .seconds(5))) == nil { guardProcess.kill() }
    }
}
