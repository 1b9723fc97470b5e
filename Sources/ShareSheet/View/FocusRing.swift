// Keeps the sheet's focus ring drawn for as long as the sheet is open, not 3 seconds.
import CGtk
import GtkSupport

/// The focus ring of a window that is used from the keyboard.
///
/// GTK draws the theme's ring (`button:focus:focus-visible`) only while the window's
/// `focus-visible` is set, and GTK 4 clears it on its own 3 seconds after it was set
/// (`VISIBLE_FOCUS_DURATION` in gtkwindow.c: every `gtk_window_set_focus_visible(TRUE)` arms
/// that timeout). GTK sets it again when a key moves the focus, but only for keys its own
/// handler sees: the sheet moves the focus itself on the arrows and Tab, in a capture-phase
/// key controller that consumes them, and with that `focus-visible` stayed off. So 3 seconds
/// after the sheet opened, the focus was invisible for good, while Enter still chose the
/// focused activity.
///
/// So the ring is switched back on whenever GTK switches it off. The theme keeps drawing it
/// (its colours in light, dark and high contrast, and on the Close button's accent), and
/// only where the focus is: GTK sets `:focus` only while the window is the active one, so
/// a sheet in the background shows no ring.
@MainActor
enum FocusRing {
    /// Shows `window`'s focus ring now and keeps it shown.
    static func keepShown(_ window: Widget) {
        let gtkWindow = cgtk_window(window)
        GtkSignals.connectWords(UnsafeMutableRawPointer(window), "notify::focus-visible", arguments: 1) { _ in
            // Within GTK's own `set_focus_visible(FALSE)`, before the next frame is drawn:
            // the ring is never painted off.
            if gtk_window_get_focus_visible(gtkWindow) == 0 { gtk_window_set_focus_visible(gtkWindow, 1) }
            return 0
        }
        gtk_window_set_focus_visible(gtkWindow, 1)
    }
}
