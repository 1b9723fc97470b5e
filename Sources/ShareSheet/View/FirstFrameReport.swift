// ACTIVITY_SHEET_REPORT_FRAME: a line with the monotonic time of each sheet window's first painted frame, for broker-bench.
import CGtk
import Glibc
import GtkSupport
import UIServiceSupport

/// broker-bench measures "Share call → the sheet's first frame" without linking GTK: when
/// `ACTIVITY_SHEET_REPORT_FRAME` is set, each sheet window reports its first painted frame
/// (the frame clock's `after-paint`, once, after the window is mapped) as one line
/// `first-frame <CLOCK_MONOTONIC nanoseconds>`: appended to the file (or FIFO) the variable
/// names when it is an absolute path, else written to standard error. The time is the
/// machine's monotonic clock, read in the paint itself, so the reader may receive the line
/// late and still subtract its own start time. Unset (the normal case), nothing is connected.
@MainActor
enum FirstFrameReport {
    /// Arms the report for `window` (before it is presented).
    static func arm(_ window: Widget) {
        guard let value = g_getenv("ACTIVITY_SHEET_REPORT_FRAME").map({ String(cString: $0) }), !value.isEmpty
        else { return }
        GtkSignals.connect(window, "map") {
            guard let surface = gtk_native_get_surface(OpaquePointer(window)),
                let clock = gdk_surface_get_frame_clock(surface)
            else { return }
            var reported = false
            GtkSignals.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                guard !reported else { return }
                reported = true
                MonotonicMark.write("first-frame", to: value)
            }
        }
    }
}
