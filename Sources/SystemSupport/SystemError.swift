// The error type of the file and watcher pieces: a failed system call with its errno.
import Glibc

/// A failed system call: which call, on what, and `errno`.
///
/// Used by the file and watcher pieces of this folder; `description` is a log line.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `"open"`.
    public let operation: String
    /// The path the call was about, when there is one.
    public let path: String?
    /// The `errno` value.
    public let code: Int32

    public init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var description: String {
        let reason = String(cString: strerror(code))
        if let path { return "\(operation) \(path): \(reason)" }
        return "\(operation): \(reason)"
    }
}
