// Small constructors for the GTK widgets the UI services use, so a view reads as a layout.
import CGtk
import Glibc

public typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Widget construction and the few properties the windows set. Main thread only.
@MainActor
public enum Widgets {
    public static func box(vertical: Bool, spacing: Int32 = 0) -> Widget {
        gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)
    }

    public static func append(_ box: Widget, _ children: Widget...) {
        for child in children { gtk_box_append(cgtk_box(box), child) }
    }

    /// A label; `markup` parses Pango markup (escape text with `escape`).
    public static func label(_ text: String, markup: Bool = false, xalign: Float = 0) -> Widget {
        let label = gtk_label_new(nil)!
        if markup {
            gtk_label_set_markup(cgtk_label(label), text)
        } else {
            gtk_label_set_text(cgtk_label(label), text)
        }
        gtk_label_set_xalign(cgtk_label(label), xalign)
        return label
    }

    /// Wraps to at most `lines` lines and ends with an ellipsis beyond (nothing is cut silently).
    public static func wrap(_ label: Widget, lines: Int32) {
        gtk_label_set_wrap(cgtk_label(label), 1)
        gtk_label_set_wrap_mode(cgtk_label(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(cgtk_label(label), lines)
        gtk_label_set_ellipsize(cgtk_label(label), PANGO_ELLIPSIZE_END)
    }

    public static func setText(_ label: Widget, _ text: String) {
        gtk_label_set_text(cgtk_label(label), text)
    }

    public static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    public static func addClass(_ widget: Widget, _ name: String) {
        gtk_widget_add_css_class(widget, name)
    }

    public static func setVisible(_ widget: Widget, _ visible: Bool) {
        gtk_widget_set_visible(widget, visible ? 1 : 0)
    }

    public static func margins(_ widget: Widget, _ top: Int32, _ end: Int32, _ bottom: Int32, _ start: Int32)
    {
        gtk_widget_set_margin_top(widget, top)
        gtk_widget_set_margin_end(widget, end)
        gtk_widget_set_margin_bottom(widget, bottom)
        gtk_widget_set_margin_start(widget, start)
    }

    /// An image of `icon` (a theme icon name or an absolute path) at `size` pixels; the theme's
    /// generic application icon when the theme has no such icon or the file is missing.
    public static func icon(_ icon: String, size: Int32) -> Widget {
        let image: Widget
        if icon.hasPrefix("/"), access(icon, R_OK) == 0 {
            image = gtk_image_new_from_file(icon)
        } else {
            image = gtk_image_new_from_icon_name(hasThemeIcon(icon) ? icon : fallbackIcon)
        }
        gtk_image_set_pixel_size(cgtk_image(image), size)
        // The button around it carries the name; the picture adds nothing to say.
        cgtk_set_accessible_hidden(image)
        return image
    }

    /// The icon shown when an activity's own is unknown to the theme.
    public static let fallbackIcon = "application-x-executable"

    public static func hasThemeIcon(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), let display = gdk_display_get_default() else {
            return false
        }
        return gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(display), name) != 0
    }

    /// A button whose accessible name is `name` (a screen reader says "Telegram, button").
    public static func button(child: Widget, name: String, flat: Bool = true) -> Widget {
        let button = gtk_button_new()!
        gtk_button_set_child(cgtk_button(button), child)
        if flat { addClass(button, "flat") }
        gtk_widget_set_tooltip_text(button, name)
        cgtk_set_accessible_label(button, name)
        return button
    }

    public static func textButton(_ text: String) -> Widget {
        let button = gtk_button_new_with_label(text)!
        cgtk_set_accessible_label(button, text)
        return button
    }

    public static func scrolled(_ child: Widget, horizontal: Bool) -> Widget {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cgtk_scrolled_window(scroller), child)
        gtk_scrolled_window_set_policy(
            cgtk_scrolled_window(scroller),
            horizontal ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
            horizontal ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC)
        // A sideways row is as tall as its content wants: without this it takes the minimum
        // height, which cuts the second line of a wrapped label ("Hacker News").
        if horizontal { gtk_scrolled_window_set_propagate_natural_height(cgtk_scrolled_window(scroller), 1) }
        return scroller
    }
}
