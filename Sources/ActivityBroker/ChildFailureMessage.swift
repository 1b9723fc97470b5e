// The message of a job whose program failed: how it ended and the last lines it wrote to stderr, made safe to show.
import Dispatch
import Glibc
import SystemSupport

/// Words a failed `exec` child for the job's `message`: `<program> exited with status 4:
/// <the last lines of its stderr>`.
///
/// The tail is what a person needs ("token expired", "no such account"); it is bounded
/// (`capturedBytes` read, `maximumLines` kept) and sanitized, since it ends up in a D-Bus
/// string and on someone's screen: valid UTF-8, no control characters or terminal escapes,
/// lines joined with ` | `.
enum ChildFailureMessage {
    /// How much of a child's stderr the broker keeps (the last bytes).
    static let capturedBytes = 2048
    /// How many of its last non-empty lines go into the message.
    static let maximumLines = 5

    /// `<program> exited with status N` (or `was killed by signal N`), then `: <tail>` when the
    /// child wrote anything to stderr.
    static func message(program: String, exit: ProcessExit, standardError: [UInt8]?) -> String {
        let name = lastPathComponent(program)
        let ending: String
        switch exit {
        case .signaled(let signal): ending = "\(name) was killed by signal \(signal)"
        default: ending = "\(name) \(exit)"
        }
        guard let standardError, let tail = tail(of: standardError) else { return ending }
        return "\(ending): \(tail)"
    }

    /// The child could not be started.
    static func message(program: String, couldNotStart error: SpawnError) -> String {
        let name = lastPathComponent(program)
        switch error {
        case .notFound: return "could not start \(name): program not found"
        case .permissionDenied: return "could not start \(name): permission denied"
        case .failed: return "could not start \(error)"
        }
    }

    /// The last `maximumLines` non-empty lines of `data`, sanitized; nil when nothing printable is left.
    static func tail(of data: [UInt8]) -> String? {
        var bytes = data.suffix(capturedBytes)
        // The kept window may start inside a multi-byte character: drop its continuation bytes.
        while let first = bytes.first, first & 0xC0 == 0x80 { bytes = bytes.dropFirst() }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { sanitized(String($0)) }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        return lines.suffix(maximumLines).joined(separator: " | ")
    }

    /// One line without terminal escapes (CSI and OSC sequences), control characters, or
    /// bidirectional overrides (which could make the rest of a message read backwards); tabs
    /// become spaces; runs of blanks and the ends are trimmed.
    static func sanitized(_ line: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = line.unicodeScalars.makeIterator()
        var lastWasSpace = true
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                skipEscape(&scalars)
                continue
            }
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidiControl =
                (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                || value == 0x200E || value == 0x200F || value == 0x061C
            if scalar == "\t" || scalar == " " {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else if !isControl && !isBidiControl {
                out.append(scalar)
                lastWasSpace = false
            }
        }
        return String(out).trimmingSpaces()
    }

    /// Skips the rest of an escape sequence after ESC: CSI (`ESC [` … final byte 0x40–0x7E),
    /// OSC (`ESC ]` … BEL or `ESC \`), or a two-character escape.
    private static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let introducer = scalars.next() else { return }
        switch introducer {
        case "[":
            while let scalar = scalars.next(), !(0x40...0x7E).contains(scalar.value) {}
        case "]":
            while let scalar = scalars.next() {
                if scalar == "\u{07}" || scalar == "\\" { break }
            }
        default:
            break
        }
    }
}
