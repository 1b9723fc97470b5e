// URLOpening: hands a URL to the system (xdg-open by default), spawned without a shell.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Hands a URL to the system's opener (the default browser, mail client, …).
public protocol URLOpening: Sendable {
    /// Opens `url` outside the app.
    ///
    /// - Throws: `URLOpenerError` when the opener could not be started or reported failure.
    func open(_ url: URL) async throws
}

/// Why the system opener failed.
public enum URLOpenerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The opener program could not be started (not on `PATH`, not executable); `errno` text.
    case spawnFailed(program: String, detail: String)
    /// The opener ran and exited with a non-zero status (or was killed by a signal).
    case exited(program: String, status: Int32)

    public var description: String {
        switch self {
        case .spawnFailed(let program, let detail): "could not start '\(program)': \(detail)"
        case .exited(let program, let status): "'\(program)' failed with status \(status)"
        }
    }
}

/// Opens URLs with `xdg-open URL` (or another program given the URL as its last argument).
///
/// The child is spawned with `posix_spawnp` — no shell, so nothing in the URL is
/// interpreted — with its signal mask emptied and every signal reset to its default
/// (`POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF`: our threads may run with signals
/// blocked, and a child would inherit that), and with stdin, stdout and stderr on
/// `/dev/null` so it never holds our terminal or a test runner's pipes. `open` waits for
/// the opener to exit (xdg-open returns once it has launched the handler) on a thread of
/// its own, never on the caller's.
public struct SystemURLOpener: URLOpening {
    /// The program and the arguments that come before the URL.
    public let command: [String]

    /// An opener running `command` + [URL]; `xdg-open` by default.
    public init(command: [String] = ["xdg-open"]) {
        precondition(!command.isEmpty, "an opener command needs a program")
        self.command = command
    }

    public func open(_ url: URL) async throws {
        let argv = command + [url.absoluteString]
        let pid = try Self.spawn(argv)
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            // waitpid blocks; a dedicated thread keeps the cooperative pool free.
            Thread.detachNewThread { continuation.resume(returning: Self.waitForExit(pid)) }
        }
        guard status == 0 else { throw URLOpenerError.exited(program: command[0], status: status) }
    }

    /// Spawns `argv` (searched on `PATH`) with a clean signal state and stdio on /dev/null.
    // TODO(process layer): this and `waitForExit(_:)` are the opener's only process code;
    // replace both with SystemSupport's careful spawn when that target lands (issue 10, point 5).
    static func spawn(_ argv: [String]) throws(URLOpenerError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard result == 0 else {
            throw .spawnFailed(program: argv[0], detail: String(cString: strerror(result)))
        }
        return pid
    }

    /// Waits for `pid` and returns its exit status (128 + signal when killed).
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
