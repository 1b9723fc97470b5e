// Applies a light/dark choice to GtkSettings' gtk-application-prefer-dark-theme.
import CGtk

/// The GTK side of following the desktop's color scheme: the portal's answer is read in
/// UIServiceSupport, and set here on the default GtkSettings (which every window follows).
public enum DarkThemePreference {
    /// Sets `gtk-application-prefer-dark-theme`; nil leaves GTK's own setting (settings.ini,
    /// GTK_THEME) as it is. Without a display there are no settings and nothing changes.
    @MainActor
    public static func apply(_ prefersDark: Bool?) {
        guard let prefersDark, let settings = gtk_settings_get_default() else { return }
        var value = GValue()
        // G_TYPE_BOOLEAN is a macro: G_TYPE_MAKE_FUNDAMENTAL(5).
        g_value_init(&value, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))
        g_value_set_boolean(&value, prefersDark ? 1 : 0)
        g_object_set_property(
            UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self),
            "gtk-application-prefer-dark-theme", &value)
        g_value_unset(&value)
    }
}
