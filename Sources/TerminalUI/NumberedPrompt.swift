// NumberedPrompt: the line-based picker for dumb terminals — a numbered list and a typed answer.

import Glibc

/// A picker for terminals that cannot move the cursor (TERM=dumb) or when only input is a tty.
///
/// Prints the header and the numbered entries (same order and numbers as the full picker, no
/// escape sequences, untrusted text sanitized), then asks "Choose 1-N (Enter to cancel): " and
/// reads one line with read(2) — byte by byte, so nothing after the line is consumed. An empty
/// line, "q", or end of input cancels; a number in range chooses; anything else is reported and
/// asked again.
public struct NumberedPrompt: Sendable {
    /// What it shows and how keys move through it (`ActivityPickerModel(header:entries:status:)`).
    public var model: ActivityPickerModel

    public init(model: ActivityPickerModel) {
        self.model = model
    }

    /// The list as printed before the first question.
    public var listing: String {
        var text = ""
        let title = TextSanitizer.sanitize(model.header.title)
        if !title.isEmpty { text += title + "\n" }
        let url = TextSanitizer.sanitize(model.header.url)
        if !url.isEmpty { text += url + "\n" }
        for (group, range) in model.groups {
            text += group.title + ":\n"
            for index in range {
                let entry = model.entries[index]
                var line = "  \(model.number(of: index)). "
                if let glyph = entry.glyph.map(TextSanitizer.sanitize), !glyph.isEmpty { line += glyph + " " }
                text += line + TextSanitizer.sanitize(entry.title) + "\n"
            }
        }
        if let status = model.status.map(TextSanitizer.sanitize), !status.isEmpty { text += status + "\n" }
        return text
    }

    /// Asks on `output` and reads answers from `input` until a valid choice, a cancel, or EOF.
    /// Blocks the calling thread; neither descriptor is closed.
    public func run(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> PickerResult {
        let count = model.entries.count
        let terminal = Terminal(input: input, output: output, environment: [:])
        terminal.write(listing)
        guard count > 0 else {
            terminal.write("Nothing to choose.\n")
            return .cancelled
        }
        let question = count == 1 ? "Choose 1 (Enter to cancel): " : "Choose 1-\(count) (Enter to cancel): "
        while true {
            terminal.write(question)
            guard let line = Self.readLine(from: input) else {
                terminal.write("\n")
                return .cancelled
            }
            let answer = line.trimmingSpaces()
            if answer.isEmpty || answer == "q" || answer == "Q" { return .cancelled }
            if let number = Int(answer), (1...count).contains(number) {
                return .chosen(model.entries[number - 1].id)
            }
            let shown = DisplayWidth.truncate(TextSanitizer.sanitize(answer), toWidth: 20)
            terminal.write("Not a choice: \(shown). Type a number from 1 to \(count).\n")
        }
    }

    /// Reads up to a newline; nil at end of input with nothing read. A last line without a
    /// newline is returned as a line.
    static func readLine(from fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n == 1 {
                if byte == UInt8(ascii: "\n") { break }
                bytes.append(byte)
                // A runaway line (binary input) should not grow without bound.
                if bytes.count > 4096 { break }
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                if bytes.isEmpty { return nil }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
