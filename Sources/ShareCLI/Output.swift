// Writes to standard output and error without stdio buffering, every line sanitized.
import Foundation
import TerminalUI

/// The one way `share` prints. Nearly everything it prints carries text from elsewhere —
/// the broker, providers (any program on the bus), web pages — so every line goes through
/// `TextSanitizer`: no escape sequence, control character or bidi override reaches the
/// terminal, in any mode (a terminal, `TERM=dumb`, a pipe). JSON is escaped first
/// (`TextSanitizer.escapingJSON`), so the sanitizer finds nothing to change in it.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((sanitized(text) + "\n").utf8))
    }

    /// Writes a message to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((sanitized(text) + "\n").utf8))
    }

    /// `text` with each line sanitized; the line breaks kept.
    static func sanitized(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n")
    }
}
