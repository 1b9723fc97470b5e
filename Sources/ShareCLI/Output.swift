// Writes to standard output and error without stdio buffering, every line sanitized.
import Foundation
import Glibc
import SystemSupport
import TerminalUI

/// The one way `share` prints. Nearly everything it prints carries text from elsewhere —
/// the broker, providers (any program on the bus), web pages — so every line goes through
/// `TextSanitizer`: no escape sequence, control character or bidi override reaches the
/// terminal, in any mode (a terminal, `TERM=dumb`, a pipe). JSON is escaped first
/// (`TextSanitizer.escapingJSON`), so the sanitizer finds nothing to change in it.
///
/// Lines go out with write(2), not `FileHandle.write(_: Data)`: that one traps on EPIPE,
/// which is what a closed pipe gives when SIGPIPE is ignored (`share activities | head -1`
/// under systemd, after `trap '' PIPE`, or once share ignores it itself for its children).
/// A reader that went away ends share quietly with `ShareExit.brokenPipe`, the status a
/// shell reports for a writer SIGPIPE killed.
enum Output {
    static func line(_ text: String) {
        write(sanitized(text) + "\n", to: STDOUT_FILENO)
    }

    /// Writes a message to standard error.
    static func error(_ text: String) {
        write(sanitized(text) + "\n", to: STDERR_FILENO)
    }

    /// `text` with each line sanitized; the line breaks kept.
    static func sanitized(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n")
    }

    /// Writes all of `text` to `descriptor` (`SystemCalls.writeAll`). On EPIPE it exits with
    /// `ShareExit.brokenPipe` and says nothing (there is nobody to tell: standard error may be
    /// the same pipe). Any other error drops the rest: printing has no better place to report it.
    static func write(_ text: String, to descriptor: Int32) {
        if SystemCalls.writeAll(descriptor, Array(text.utf8)) == EPIPE { exit(ShareExit.brokenPipe.rawValue) }
    }
}
