// TextSanitizer: makes untrusted text (titles, URLs) safe to print on a terminal.

/// Makes untrusted text safe to show on a terminal: no escape sequences, no control characters.
///
/// Titles and URLs come from web pages and other programs. Printed raw, an ESC could move the
/// cursor, retitle the window, or repaint what the user reads (a fake URL, say). `sanitize`
/// removes whole escape sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-character ESC forms) and
/// their 8-bit C1 spellings, every other C0/C1 control and DEL, and the bidirectional
/// overrides/isolates/marks that can reorder what a URL appears to say. Tab, newline, carriage
/// return and the Unicode line/paragraph separators become one space each, so one-line layouts
/// stay one line. An unterminated string sequence (OSC without BEL or ST) swallows the rest of
/// the text, as a terminal would.
public enum TextSanitizer {
    /// Returns `text` with everything that a terminal would interpret rather than print removed.
    public static func sanitize(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            let v = s.value
            switch v {
            case 0x1B:
                i = skipEscape(scalars, from: i)
            case 0x9B:
                i = skipControlSequence(scalars, from: i + 1)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                i = skipString(scalars, from: i + 1)
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2028, 0x2029:
                out.append(" ")
                i += 1
            case _ where isUnsafe(s):
                i += 1
            default:
                out.append(s)
                i += 1
            }
        }
        return String(out)
    }

    /// Whether a terminal would act on `scalar` rather than print it, or it could reorder
    /// the text around it: C0 and C1 controls, DEL, the line and paragraph separators, and
    /// the bidirectional marks, embeddings, overrides and isolates.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// JSON text with every unsafe scalar (`isUnsafe`) written as a `\uXXXX` escape, except
    /// the whitespace between tokens (tab, newline, carriage return).
    ///
    /// JSON encoders escape C0 controls in strings but pass C1 controls, U+2028/2029 and the
    /// bidi overrides (U+202E) through raw, which a terminal then acts on. Outside strings
    /// JSON has only ASCII tokens and whitespace, so every other unsafe scalar is inside a
    /// string, where the escape means the same character: the data is unchanged, only its
    /// spelling.
    public static func escapingJSON(_ json: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            isUnsafe(scalar) && scalar != "\n" && scalar != "\t" && scalar != "\r"
        }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Skips an escape sequence starting with ESC at `start`; returns the index after it.
    private static func skipEscape(_ s: [Unicode.Scalar], from start: Int) -> Int {
        let next = start + 1
        guard next < s.count else { return next }
        switch s[next].value {
        case 0x5B:  // [
            return skipControlSequence(s, from: next + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ] P X ^ _
            return skipString(s, from: next + 1)
        case 0x20...0x2F:
            // Intermediate bytes, then one final byte (e.g. ESC ( B).
            var i = next
            while i < s.count, (0x20...0x2F).contains(s[i].value) { i += 1 }
            if i < s.count, (0x30...0x7E).contains(s[i].value) { i += 1 }
            return i
        case 0x30...0x7E:
            return next + 1
        default:
            // ESC before something that cannot end a sequence: drop the ESC alone; the next
            // character is judged on its own.
            return next
        }
    }

    /// Skips CSI parameters, intermediates and the final byte, starting after the introducer.
    private static func skipControlSequence(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < s.count, (0x20...0x3F).contains(s[i].value) { i += 1 }
        if i < s.count, (0x40...0x7E).contains(s[i].value) { i += 1 }
        return i
    }

    /// Skips a string sequence body up to and including BEL, ST (ESC \) or 8-bit ST.
    private static func skipString(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < s.count {
            switch s[i].value {
            case 0x07, 0x9C:
                return i + 1
            case 0x1B where i + 1 < s.count && s[i + 1] == "\\":
                return i + 2
            default:
                i += 1
            }
        }
        return i
    }
}
