// ProcessEnvironment: this process's environment as a dictionary, read from `environ`.
import Glibc

/// The process environment as `ProcessInfo.processInfo.environment` gave it, without Foundation.
///
/// Why not `ProcessInfo`: it is the broker's only reason to link FoundationEssentials here,
/// whose pages cost the daemon ~1.5 MB of resident memory (issue 14).
public enum ProcessEnvironment {
    /// Name → value of every `NAME=value` entry of `environ` now (a later entry of the same
    /// name wins, as in `ProcessInfo`); entries without `=` are skipped. Not thread-safe against
    /// a concurrent `setenv`, like `environ` itself.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        guard var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = Optional(environ) else {
            return result
        }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
