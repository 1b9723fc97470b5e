// TextChecks: the character tests the fuzz targets' properties share.

/// Character classes for the properties: what must never reach a log line or a terminal.
enum TextChecks {
    /// C0 controls, DEL and C1 controls: what a terminal may act on.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` holds a control character (tab and newline included).
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// Whether `text` starts with the bytes of `prefix`. Not `hasPrefix`, which compares
    /// characters: a combining mark after the prefix (`template '` + U+0330) joins its last
    /// character, and the prefix no longer matches though the bytes are there.
    static func startsWith(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    /// A short, printable rendering of `text` for failure messages.
    static func shown(_ text: String, limit: Int = 120) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            out += isControl(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return text.unicodeScalars.count > limit ? out + "…" : out
    }
}
