// Page titles cut to what the window title and the Action button's items may carry.
import Foundation

/// A page's title, which the page chooses freely (any length, changed at any rate), cut at a
/// `Character` boundary so that no grapheme is split, with an ellipsis where it was cut.
public enum TitleText {
    /// The window title: window managers and task bars show a line, never a page's worth.
    public static let maxWindowTitleCharacters = 256
    /// The Action button's `title` item, in UTF-8 bytes: ActivityKit's `Items.maxTitleLength`
    /// (4 KiB), which the broker refuses beyond (BrowserWindow does not import ActivityKit).
    public static let maxItemTitleBytes = 4 * 1024

    static let ellipsis = "…"

    /// `title` with at most `characters` characters, the last an ellipsis when it was cut.
    public static func forWindow(_ title: String, characters: Int = maxWindowTitleCharacters) -> String {
        guard title.count > characters else { return title }
        return String(title.prefix(max(characters - 1, 0))) + ellipsis
    }

    /// `title` in at most `bytes` UTF-8 bytes, ending in an ellipsis when it was cut.
    public static func forItem(_ title: String, bytes: Int = maxItemTitleBytes) -> String {
        guard title.utf8.count > bytes else { return title }
        let budget = bytes - ellipsis.utf8.count
        var used = 0
        var end = title.startIndex
        for index in title.indices {
            let size = title[index].utf8.count
            guard used + size <= budget else { break }
            used += size
            end = title.index(after: index)
        }
        return String(title[..<end]) + ellipsis
    }
}
