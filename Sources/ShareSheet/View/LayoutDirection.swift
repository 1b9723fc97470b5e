// Lays a sheet's window out in the direction of its language (SheetDirection), whatever GTK's default.
import CGtk
import GtkSupport

/// Applies a `SheetDirection` to every widget of a window.
///
/// GTK 4 has one default direction per process, from its own gtk40 translation of
/// "default:LTR" in the process's locale (right to left only when that locale is installed and
/// gtk40 has the language); a widget's own direction is not inherited by its children. Each
/// sheet may be shown in another language (`Show`'s `locale`), so the direction is set on each
/// widget of the window, GTK's inner ones too (the header bar's boxes, the scrolled windows'
/// scrollbars and viewports, the search entry's parts): boxes then start at the right, labels
/// align to the right, the Share row's viewport starts at its right end and its scrollbar is
/// mirrored. Called once the window holds all its widgets (the sheet adds none later).
@MainActor
enum LayoutDirection {
    static func apply(_ direction: SheetDirection, to root: Widget) {
        set(direction == .rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR, on: root)
    }

    private static func set(_ direction: GtkTextDirection, on widget: Widget) {
        gtk_widget_set_direction(widget, direction)
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            set(direction, on: current)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
