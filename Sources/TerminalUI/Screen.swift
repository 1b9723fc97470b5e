// Screen: builds a full-screen frame of ANSI output in memory and writes it in one go.

/// A frame for full-screen views (`share browse`): cursor moves, cleared rows and clipped,
/// sanitized text, collected in memory and written with one write(2) to avoid flicker.
///
/// Rows and columns are 0-based here and converted to the terminal's 1-based positions. Text
/// given to `put`/`line` is untrusted: it is sanitized and clipped so it never passes the right
/// edge. Use on the thread that owns the `Terminal`.
public struct Screen: Sendable {
    public var size: TerminalSize
    public var colors: ColorSupport
    /// The escape sequences and text collected so far.
    public private(set) var output = ""

    public init(size: TerminalSize, colors: ColorSupport = .none) {
        self.size = size
        self.colors = colors
    }

    /// A screen the size of `terminal`, with its color support.
    public init(terminal: Terminal) {
        self.init(size: terminal.size, colors: terminal.colorSupport)
    }

    /// Clears the whole screen and homes the cursor.
    public mutating func clear() {
        output += "\u{1B}[0m\u{1B}[2J\u{1B}[H"
    }

    /// Moves the cursor to `row`, `column` (0-based, clamped to the screen).
    public mutating func move(row: Int, column: Int = 0) {
        let r = max(0, min(size.rows - 1, row)) + 1
        let c = max(0, min(size.columns - 1, column)) + 1
        output += "\u{1B}[\(r);\(c)H"
    }

    /// Writes `text` at the cursor position `column`, clipped so it ends before the right edge.
    public mutating func put(_ text: String, row: Int, column: Int = 0, style: TextStyle = .plain) {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return }
        move(row: row, column: column)
        // Stop one short of the last column on the last row, where printing would scroll.
        let room = size.columns - column - (row == size.rows - 1 ? 1 : 0)
        let clipped = DisplayWidth.truncate(TextSanitizer.sanitize(text), toWidth: room)
        output += style.apply(clipped, colors: colors)
    }

    /// Clears `row` and writes `text` from its start; with `fill`, the style covers the whole row.
    public mutating func line(_ text: String, row: Int, style: TextStyle = .plain, fill: Bool = false) {
        guard row >= 0, row < size.rows else { return }
        move(row: row)
        output += "\u{1B}[2K"
        if fill {
            let room = size.columns - (row == size.rows - 1 ? 1 : 0)
            let padded = DisplayWidth.pad(TextSanitizer.sanitize(text), toWidth: room)
            output += style.apply(padded, colors: colors)
        } else {
            put(text, row: row, style: style)
        }
    }

    /// Clears `row` and writes `styled`, a line already sanitized and styled by the caller
    /// (`TextStyle.apply`), clipped so it ends before the right edge: the line can never wrap
    /// onto the row below, whatever width the caller thought it had. One column is always
    /// left free, as `put` does on the last row, so that no terminal's pending-wrap rule applies.
    public mutating func styledLine(_ styled: String, row: Int) {
        guard row >= 0, row < size.rows else { return }
        move(row: row)
        output += "\u{1B}[2K"
        output += DisplayWidth.clipStyled(styled, toWidth: size.columns - 1)
    }

    /// Appends raw escape sequences or text that is known to be safe (not sanitized).
    public mutating func appendRaw(_ sequence: String) {
        output += sequence
    }

    /// Writes everything collected to `terminal` and empties the buffer.
    public mutating func flush(to terminal: Terminal) {
        terminal.write(output)
        output = ""
    }
}
