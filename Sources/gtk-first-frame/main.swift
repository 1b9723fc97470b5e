// gtk-first-frame: a bare GTK 4 window that prints the monotonic time of its first painted frame and exits (broker-bench's floor).
import CGtk
import Glibc

// broker-bench compares "Share call → the sheet's first frame" with this: the cheapest a GTK 4
// program can get a window on screen, started the same way (a fresh process on the same
// display, with the same GSK renderer). It prints `first-frame <CLOCK_MONOTONIC ns>` on
// standard output at the frame clock's first `after-paint` after the window is mapped, the
// same moment activity-sheet reports under ACTIVITY_SHEET_REPORT_FRAME, then exits 0.
// It exits 1 when the display cannot be opened.

/// The thunks capture nothing (GTK-NOTES pitfall 2): they are plain C functions.
typealias SignalThunk = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

let afterPaint: SignalThunk = { _, _ in
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    let nanoseconds = UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    writeLine("first-frame \(nanoseconds)\n", to: 1)
    exit(0)
}

let mapped: SignalThunk = { widget, _ in
    guard let widget, let surface = gtk_native_get_surface(OpaquePointer(widget)),
        let clock = gdk_surface_get_frame_clock(surface)
    else { return }
    g_signal_connect_data(
        UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(afterPaint, to: GCallback.self), nil,
        nil,
        GConnectFlags(rawValue: 0))
}

guard gtk_init_check() != 0 else {
    writeLine("gtk-first-frame: cannot open the display\n", to: 2)
    exit(1)
}
let window = gtk_window_new()!
gtk_window_set_title(cgtk_window(window), "gtk-first-frame")
gtk_window_set_default_size(cgtk_window(window), 420, 560)
gtk_window_set_child(cgtk_window(window), gtk_label_new("A bare GTK 4 window"))
g_signal_connect_data(
    UnsafeMutableRawPointer(window), "map", unsafeBitCast(mapped, to: GCallback.self), nil, nil,
    GConnectFlags(rawValue: 0))
gtk_window_present(cgtk_window(window))
let loop = g_main_loop_new(nil, 0)
g_main_loop_run(loop)

/// One unbuffered `write(2)`: the line must be out before `exit`.
func writeLine(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
