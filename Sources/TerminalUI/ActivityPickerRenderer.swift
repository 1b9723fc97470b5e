// ActivityPickerRenderer: lays the picker model out as terminal lines clipped to the window.

/// Turns an `ActivityPickerModel` into lines of text with ANSI styles, one per terminal row.
///
/// Every untrusted string (title, URL, entry titles and glyphs, status) is sanitized, then
/// clipped with an ellipsis so each line takes at most `size.columns - 1` columns: a line that
/// filled the last column could wrap and break the run loop's count of drawn rows. When the list
/// is taller than the window, it shows a window of rows around the selection.
public struct ActivityPickerRenderer: Sendable {
    public var size: TerminalSize
    /// Colors for the tint; styles (bold, dim, reverse) are used unless `styled` is false.
    public var colors: ColorSupport
    /// False gives plain text with no escape sequences at all (tests, dumb outputs).
    public var styled: Bool

    public init(size: TerminalSize, colors: ColorSupport = .none, styled: Bool = true) {
        self.size = size
        self.colors = colors
        self.styled = styled
    }

    /// The hint line under the list: arrows and digits select, only Enter performs.
    public static func hint(count: Int) -> String {
        let numbers = count > 1 ? "1-\(count)" : "1"
        return "↑↓ or \(numbers) select · Enter choose · Esc cancel"
    }

    /// The lines to draw, top to bottom, without line terminators.
    public func lines(for model: ActivityPickerModel) -> [String] {
        let width = max(1, size.columns - 1)
        var top: [String] = []
        let title = TextSanitizer.sanitize(model.header.title)
        if !title.isEmpty { top.append(style(.bold, DisplayWidth.truncate(title, toWidth: width))) }
        let url = TextSanitizer.sanitize(model.header.url)
        if !url.isEmpty { top.append(style(.dim, DisplayWidth.truncate(url, toWidth: width))) }

        var bottom: [String] = []
        bottom.append(
            style(.dim, DisplayWidth.truncate(Self.hint(count: model.entries.count), toWidth: width)))
        if let status = model.status.map(TextSanitizer.sanitize), !status.isEmpty {
            bottom.append(DisplayWidth.truncate(status, toWidth: width))
        }

        var rows: [String] = []
        var selectedRow = 0
        if model.entries.isEmpty {
            rows.append("  (nothing to offer)")
        }
        let numberWidth = String(model.entries.count).count
        let hasGlyphs = model.entries.contains { ($0.glyph ?? "").isEmpty == false }
        for (group, range) in model.groups {
            rows.append(style(.bold, DisplayWidth.truncate(group.title, toWidth: width)))
            for index in range {
                if index == model.selection { selectedRow = rows.count }
                rows.append(
                    entryLine(model, index: index, numberWidth: numberWidth, glyphs: hasGlyphs, width: width))
            }
        }

        // Leave one row free so the cursor parked under the picker does not scroll it. On a very
        // short window give up the hint, then the URL, before the entries.
        var room = size.rows - 1 - top.count - bottom.count
        if room < 3, !bottom.isEmpty {
            bottom.removeFirst()
            room += 1
        }
        if room < 3, top.count == 2 {
            top.removeLast()
            room += 1
        }
        room = max(1, room)
        if rows.count > room {
            let start = max(0, min(rows.count - room, selectedRow - room / 2))
            rows = Array(rows[start..<(start + room)])
        }
        return top + rows + bottom
    }

    private func entryLine(
        _ model: ActivityPickerModel, index: Int, numberWidth: Int, glyphs: Bool, width: Int
    ) -> String {
        let entry = model.entries[index]
        let selected = index == model.selection
        let number = String(model.number(of: index))
        var text = (selected ? "› " : "  ")
        text += String(repeating: " ", count: numberWidth - number.count) + number + "  "
        if glyphs {
            let glyph = TextSanitizer.sanitize(entry.glyph ?? "")
            text += DisplayWidth.pad(DisplayWidth.truncate(glyph, toWidth: 2, ellipsis: ""), toWidth: 2) + " "
        }
        text += TextSanitizer.sanitize(entry.title)
        let clipped = DisplayWidth.truncate(text, toWidth: width)
        return selected ? style(.reverse, DisplayWidth.pad(clipped, toWidth: width)) : clipped
    }

    private func style(_ style: TextStyle, _ text: String) -> String {
        styled ? style.apply(text, colors: colors) : text
    }
}
