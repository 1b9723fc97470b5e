// ACTIVITY_SHEET_REPORT_FRAME: a line with the monotonic time of each sheet window's first painted frame, for broker-bench.
import CGtk
import GtkSupport
import Glibc

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
                write(line: "first-frame \(monotonicNanoseconds())\n", to: value)
            }
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// One `write(2)` of a short line: atomic on a FIFO, so readers never see halves.
    private static func write(line: String, to destination: String) {
        let fd =
            destination.hasPrefix("/")
            ? open(destination, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) : 2
        guard fd >= 0 else { return }
        defer { if fd != 2 { close(fd) } }
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}
