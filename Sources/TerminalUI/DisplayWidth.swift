// DisplayWidth: terminal column widths of text and clipping to a width with an ellipsis.

/// Terminal column widths, an approximation of `wcwidth` that does not depend on the C locale.
///
/// Wide: East Asian wide/fullwidth ranges and emoji presentation (2 columns). Zero: combining
/// marks, format characters (ZWJ, variation selectors) and controls. Everything else: 1. Widths
/// are per grapheme cluster, taken from its first scalar (2 when an emoji is followed by VS16).
/// Text must be sanitized first; escape sequences are not skipped here.
public enum DisplayWidth {
    /// Columns taken by one character.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let base = of(first)
        if base == 1, first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        if base == 0 {
            // A cluster starting with a zero-width scalar (a lone combining mark) still shows.
            return scalars.map(of).max() ?? 0
        }
        return base
    }

    /// Columns taken by one scalar on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x7F { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(v) { return 2 }
        return 1
    }

    /// Columns taken by `text`.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Clips `text` to at most `width` columns, ending with `ellipsis` when something was cut.
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let room = width >= ellipsisWidth ? width - ellipsisWidth : width
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > room { break }
            result.append(character)
            used += w
        }
        return width >= ellipsisWidth ? result + ellipsis : result
    }

    /// Clips `text` to at most `width` columns keeping its END, starting with `ellipsis` when
    /// something was cut: for a host's prefix, whose last labels sit next to the registrable
    /// domain and say the most.
    public static func truncateLeading(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let room = width >= ellipsisWidth ? width - ellipsisWidth : width
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = of(character)
            if used + w > room { break }
            kept.append(character)
            used += w
        }
        let tail = String(kept.reversed())
        return width >= ellipsisWidth ? ellipsis + tail : tail
    }

    /// Clips a line that carries its own SGR styling (CSI sequences around sanitized text) to
    /// at most `width` columns: the sequences take no column and are all kept, so colours stay
    /// balanced; text past the width is dropped and a reset ends a clipped line. The last
    /// defence of a full-screen frame, so that no row can wrap onto the next one. Only CSI
    /// sequences are kept; any other control or bidi scalar (`TextSanitizer.isUnsafe`) is dropped.
    public static func clipStyled(_ line: String, toWidth width: Int) -> String {
        let scalars = Array(line.unicodeScalars)
        var result = ""
        var used = 0
        var clipped = false
        var text = String.UnicodeScalarView()
        /// Adds the text gathered since the last sequence, as far as it fits.
        func flushText() {
            for character in String(text) {
                let w = of(character)
                if clipped || used + w > width {
                    clipped = true
                    break
                }
                result.append(character)
                used += w
            }
            text = String.UnicodeScalarView()
        }
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                flushText()
                var end = i + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                end = min(end + 1, scalars.count)
                result.unicodeScalars.append(contentsOf: scalars[i..<end])
                i = end
            } else {
                // Anything else a terminal would act on never gets through, sanitized or not.
                if !TextSanitizer.isUnsafe(scalars[i]) { text.append(scalars[i]) }
                i += 1
            }
        }
        flushText()
        if clipped { result += "\u{1B}[0m" }
        return result
    }

    /// Pads `text` with spaces on the right to exactly `width` columns (clipping first).
    public static func pad(_ text: String, toWidth width: Int) -> String {
        let clipped = truncate(text, toWidth: width)
        let missing = width - of(clipped)
        return missing > 0 ? clipped + String(repeating: " ", count: missing) : clipped
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
}
