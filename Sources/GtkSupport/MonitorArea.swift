// The room a new window has on the display's monitors (GdkDisplay/GdkMonitor), for sizing it to a small screen.
import CGtk

/// Where a window can go before it is shown, read from GDK: each monitor's work area on X11
/// (the monitor less the desktop's panels, `_NET_WORKAREA`), else its geometry.
@MainActor
public enum MonitorArea {
    /// The narrowest width and the lowest height among the usable areas of the default
    /// display's monitors, in logical pixels; nil without a display or a monitor.
    ///
    /// The smallest, because a window's monitor is not known before it is shown (Wayland tells
    /// a surface its monitor only once it is mapped; an X11 window manager places it where it
    /// likes): a size that fits the smallest monitor fits whichever one the window lands on.
    public static func smallestUsableSize() -> (width: Int32, height: Int32)? {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else {
            return nil
        }
        var smallest: (width: Int32, height: Int32)?
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let item = g_list_model_get_item(monitors, index) else { continue }
            defer { g_object_unref(item) }
            let area = usableArea(OpaquePointer(item))
            guard area.width > 0, area.height > 0 else { continue }
            // Each side on its own: a tall narrow monitor and a wide short one both constrain.
            smallest = (
                min(smallest?.width ?? area.width, area.width),
                min(smallest?.height ?? area.height, area.height)
            )
        }
        return smallest
    }

    /// The monitor's work area on X11, its geometry elsewhere.
    private static func usableArea(_ monitor: OpaquePointer) -> GdkRectangle {
        var area = GdkRectangle()
        if isX11Monitor(monitor) {
            gdk_x11_monitor_get_workarea(monitor, &area)
            if area.width > 0, area.height > 0 { return area }
        }
        gdk_monitor_get_geometry(monitor, &area)
        return area
    }

    /// Whether `monitor` is a GdkX11Monitor (`GDK_IS_X11_MONITOR` is a macro).
    private static func isX11Monitor(_ monitor: OpaquePointer) -> Bool {
        g_type_check_instance_is_a(
            UnsafeMutableRawPointer(monitor).assumingMemoryBound(to: GTypeInstance.self),
            gdk_x11_monitor_get_type()) != 0
    }
}
