// The keys the sheet reacts to, independent of any toolkit's key codes.

/// A key press as the model sees it; the view maps the toolkit's key values onto these.
public enum SheetKey: Hashable, Sendable {
    case escape, enter, space, tab, shiftTab, left, right, up, down, backspace
    /// A printable character typed without Control or Alt: it goes to the search.
    case character(Character)
}
