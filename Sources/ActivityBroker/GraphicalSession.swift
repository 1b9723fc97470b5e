// Whether the broker runs in a graphical session: the condition for Share and Browse to draw anything.

/// The sheet and the browser window inherit the broker's environment when the bus starts them,
/// so a session with neither `WAYLAND_DISPLAY` nor `DISPLAY` set for the broker has nowhere to
/// show them: `Share` and `Browse` answer `Unavailable` there (API.md §10).
enum GraphicalSession {
    static func isPresent(in environment: [String: String]) -> Bool {
        ["WAYLAND_DISPLAY", "DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }
}
