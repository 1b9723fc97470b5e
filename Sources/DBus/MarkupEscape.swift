// Escaping text for XML and HTML: the one function behind introspection XML and the browser's reader pages.

/// Replaces the characters that end text or a double-quoted attribute in XML and HTML (`&`,
/// `<`, `>`, `"`) with entity references, and `'` too when `apostrophe` is set (XML attribute
/// values in either quote; HTML keeps it, since `&apos;` is not HTML 4).
///
/// It lives in `DBus` because that is the lowest layer both users may import (introspection
/// here, `BrowserWindow`'s pages above); `package` keeps it out of the library's public API.
/// GtkSupport's `Widgets.escape` (Pango markup) is GLib's own and stays there.
package enum MarkupEscape {
    package static func escape(_ text: String, apostrophe: Bool) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'" where apostrophe: out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
