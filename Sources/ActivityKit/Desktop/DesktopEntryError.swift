// The error thrown for a broken desktop entry or mimeapps.list file, naming file and line.

/// A problem in a desktop entry or `mimeapps.list` file.
///
/// `description` reads like a compiler diagnostic, `"foo.desktop:7: duplicate key 'Name'"`,
/// so the service can log it as one line. `line` is 1-based and `nil` when the problem
/// concerns the whole file (e.g. invalid UTF-8 or a missing `[Desktop Entry]` group).
public struct DesktopEntryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name or path the caller gave when parsing.
    public let fileName: String
    /// The 1-based line number, or `nil` for a problem with the whole file.
    public let line: Int?
    /// What is wrong, in one sentence without the file and line prefix.
    public let message: String

    /// Creates an error for `fileName` at `line`.
    public init(fileName: String, line: Int?, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(fileName):\(line): \(message)" }
        return "\(fileName): \(message)"
    }
}
