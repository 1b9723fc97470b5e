// The browser window's keys: GDK key values and modifiers onto the window's commands.
import CGtk

/// The shortcuts of API.md §10's window, read in the capture phase so a page cannot take them.
enum BrowserKeys {
    /// The command for a key press; nil leaves the key to GTK and WebKit.
    static func command(_ keyval: UInt32, _ state: GdkModifierType) -> BrowserCommand? {
        let modifiers = state.rawValue
        let control = modifiers & GDK_CONTROL_MASK.rawValue != 0
        let alt = modifiers & GDK_ALT_MASK.rawValue != 0
        switch Int32(keyval) {
        case GDK_KEY_Escape where !control && !alt: return .dismiss
        case GDK_KEY_w, GDK_KEY_W: return control ? .dismiss : nil
        case GDK_KEY_Left, GDK_KEY_KP_Left: return alt ? .back : nil
        case GDK_KEY_Right, GDK_KEY_KP_Right: return alt ? .forward : nil
        case GDK_KEY_l, GDK_KEY_L: return control ? .focusAddress : nil
        case GDK_KEY_r, GDK_KEY_R: return control ? .reload : nil
        case GDK_KEY_F5: return .reload
        default: return nil
        }
    }
}
