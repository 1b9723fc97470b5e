// The typed error of ChildProcessLauncher.spawn, naming the program.
import Glibc

/// Why a program could not be started; thrown by `ChildProcessLauncher.spawn` before any
/// process exists. Every case names the program as it was asked for.
public enum SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not on PATH, or the given path does not exist (ENOENT).
    case notFound(program: String)
    /// Exists but may not be executed (EACCES).
    case permissionDenied(program: String)
    /// Any other failure: the system call and `errno`.
    case failed(program: String, operation: String, code: Int32)

    /// The program the error is about.
    public var program: String {
        switch self {
        case .notFound(let program), .permissionDenied(let program), .failed(let program, _, _):
            return program
        }
    }

    public var description: String {
        switch self {
        case .notFound(let program): return "\(program): program not found"
        case .permissionDenied(let program): return "\(program): permission denied"
        case .failed(let program, let operation, let code):
            return "\(program): \(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}
