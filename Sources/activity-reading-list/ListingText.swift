// ListingText: what `activity-reading-list --list` may print of a saved title or URL.

/// Text from the list file (titles come from web pages) made safe for a terminal: every
/// C0/C1 control character and DEL removed — so no escape sequence can reach the terminal, as
/// ESC and CSI (U+009B) are gone — tab and line breaks shown as one space, and the
/// bidirectional overrides and isolates that reorder what a line appears to say removed.
///
/// A local function rather than TerminalUI's `TextSanitizer`: the provider's layer may not
/// import the terminal UI (scripts/check-layers.py). It removes less cleverly (the printable
/// tail of an escape sequence, e.g. "[2J", stays as text) but lets nothing through.
enum ListingText {
    static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
