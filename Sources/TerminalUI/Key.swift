// Key: one decoded key press from a terminal.

/// One key press as `KeyDecoder` understands it.
///
/// Printable input (digits, letters, any UTF-8 character) arrives as `.character`; Ctrl-C and
/// Ctrl-D are their own cases because raw mode delivers them as bytes rather than signals.
public enum Key: Hashable, Sendable {
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// CR or LF (and keypad Enter, `ESC O M`).
    case enter
    /// An ESC not followed by more bytes within the decoder's timeout.
    case escape
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    /// DEL (0x7F) or BS (0x08).
    case backspace
    /// 0x03, which a terminal in raw mode delivers instead of SIGINT.
    case ctrlC
    /// 0x04.
    case ctrlD
    /// A printable character (one Unicode scalar).
    case character(Character)
    /// Another C0 control byte (Ctrl-A is 0x01, and so on).
    case control(UInt8)
    /// An escape sequence or byte with no meaning here (function keys, mouse reports, bad UTF-8).
    case unknown([UInt8])

    /// The value of an ASCII digit key, or nil.
    public var digit: Int? {
        guard case .character(let c) = self, let ascii = c.asciiValue, (0x30...0x39).contains(ascii)
        else { return nil }
        return Int(ascii - 0x30)
    }
}
