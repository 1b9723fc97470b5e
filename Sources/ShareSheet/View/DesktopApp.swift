// The calling app as its desktop entry names it: display name and icon for the sheet's header.
import CGtk
import GtkSupport

/// The app whose `app_id` came with `Show`, looked up as `<app_id>.desktop` through GIO.
@MainActor
struct DesktopApp {
    let name: String
    /// A 16-pixel image of the app's icon, when the entry has one.
    let icon: Widget?

    /// Nil when `appID` is empty or no desktop entry has that id.
    init?(appID: String) {
        guard !appID.isEmpty, !appID.contains("/"), let entry = g_desktop_app_info_new(appID + ".desktop")
        else {
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(entry)) }
        let info = cgtk_app_info(entry)
        guard let name = g_app_info_get_display_name(info) else { return nil }
        self.name = String(cString: name)
        if let gicon = g_app_info_get_icon(info) {
            let image = gtk_image_new_from_gicon(gicon)!
            gtk_image_set_pixel_size(cgtk_image(image), 16)
            cgtk_set_accessible_hidden(image)
            icon = image
        } else {
            icon = nil
        }
    }
}
