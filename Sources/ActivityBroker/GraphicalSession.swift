// Whether the broker runs in a graphical session: the condition for Share and Browse to draw anything.

/// API.md §10 decides by the broker's own environment: with neither `WAYLAND_DISPLAY` nor
/// `DISPLAY` set for it, `Share` and `Browse` answer `Unavailable`. The sheet and the browser
/// window do not inherit it: the bus starts them with its activation environment (systemd's
/// manager environment when their units are used, as the broker's is), which a desktop sets
/// when its session starts (`dbus-update-activation-environment --systemd DISPLAY
/// WAYLAND_DISPLAY`). The broker reads its own once, at start: a broker started before the
/// graphical session answers `Unavailable` until it is restarted.
enum GraphicalSession {
    static func isPresent(in environment: [String: String]) -> Bool {
        ["WAYLAND_DISPLAY", "DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }
}
