// Writes to standard output and error without stdio buffering.
import Foundation
import TerminalUI

enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes a message to standard error. Messages carry text from the broker and from
    /// providers (any program on the bus), so each line is sanitized: no escape sequences.
    static func error(_ text: String) {
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n")
        FileHandle.standardError.write(Data((safe + "\n").utf8))
    }
}
