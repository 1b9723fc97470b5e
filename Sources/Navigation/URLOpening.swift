// URLOpening: hands a URL to the system (xdg-open by default), spawned without a shell.

import Foundation
import Glibc
import SystemSupport

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
        // The broker's wording, so that the same failure reads the same everywhere.
        case .spawnFailed(let program, let detail):
            OpenerFailure.message(program: program, couldNotStartBecause: detail)
        case .exited(let program, let status):
            OpenerFailure.message(
                program: program, exit: status > 128 ? .signaled(status - 128) : .exited(status))
        }
    }
}

/// Opens URLs with `xdg-open URL` (or another program given the URL as its last argument).
///
/// The child is started by SystemSupport's `ProcessSpawner`, the package's one careful spawn:
/// no shell, so nothing in the URL is interpreted; an empty signal mask and every signal at its
/// default (our threads may run with signals blocked, and a child would inherit that); and
/// stdin, stdout and stderr on `/dev/null`, so it never holds our terminal or a test runner's
/// pipes. `open` waits for the opener to exit (xdg-open returns once it has launched the
/// handler) on a thread of its own, never on the caller's.
public struct SystemURLOpener: URLOpening {
    /// The program and the arguments that come before the URL.
    public let command: [String]

    /// An opener running `command` + [URL]; `xdg-open` by default.
    public init(command: [String] = ["xdg-open"]) {
        precondition(!command.isEmpty, "an opener command needs a program")
        self.command = command
    }

    public func open(_ url: URL) async throws {
        let arguments = command + [url.absoluteString]
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ProcessExit, SpawnError>, Never>) in
            // The spawn and its wait block; a dedicated thread keeps the cooperative pool free.
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(SpawnError) in
                        try ProcessSpawner.run(
                            arguments, environment: ProcessInfo.processInfo.environment,
                            standardStreams: .null)
                    })
            }
        }
        switch outcome {
        case .success(let exit):
            guard exit.shellStatus == 0 else {
                throw URLOpenerError.exited(program: command[0], status: exit.shellStatus)
            }
        case .failure(let error):
            throw URLOpenerError.spawnFailed(program: command[0], detail: Self.reason(error))
        }
    }

    /// The `strerror` text of why the opener could not start, as `spawnFailed` has always said it.
    private static func reason(_ error: SpawnError) -> String {
        let code: Int32
        switch error {
        case .notFound: code = ENOENT
        case .permissionDenied: code = EACCES
        case .failed(_, _, let number): code = number
        }
        return String(cString: strerror(code))
    }
}
