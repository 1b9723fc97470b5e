// The colours a session asked for (control and bar tints), as a CSS provider for its window alone.
import CGtk
import Navigation

/// Applies `control_tint` to the header bar's controls and `bar_tint` to the header bar of one
/// window, through a display-wide provider whose rules match only that window's CSS class.
@MainActor
final class TintStyle {
    private static var next = 0
    /// The CSS class the window carries.
    let windowClass: String
    private var provider: UnsafeMutablePointer<GtkCssProvider>?

    init(control: TintColor?, bar: TintColor?) {
        Self.next += 1
        windowClass = "activity-browser-\(Self.next)"
        var css = ""
        if let bar {
            // Text on the bar in black or white, whichever reads better on it.
            let luminance = 0.2126 * Double(bar.red) + 0.7152 * Double(bar.green) + 0.0722 * Double(bar.blue)
            let text = luminance > 140 ? "#000000" : "#ffffff"
            css += """
                window.\(windowClass) headerbar { background: \(bar.hex); color: \(text); box-shadow: none; }
                window.\(windowClass) headerbar button, window.\(windowClass) headerbar label { color: \(text); }

                """
        }
        if let control {
            css += "window.\(windowClass) headerbar button.tinted { color: \(control.hex); }\n"
            css +=
                "window.\(windowClass) headerbar button.tinted label { color: \(control.hex); font-weight: bold; }\n"
        }
        guard !css.isEmpty, let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        self.provider = provider
    }

    /// Removes the rules (the window is gone).
    func remove() {
        guard let provider, let display = gdk_display_get_default() else { return }
        gtk_style_context_remove_provider_for_display(display, OpaquePointer(provider))
        g_object_unref(UnsafeMutableRawPointer(provider))
        self.provider = nil
    }
}
