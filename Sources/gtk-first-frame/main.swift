// gtk-first-frame: a bare GTK 4 window that prints the monotonic time of its first painted frame and exits (broker-bench's floor).
import CGtk
import FloorSupport
import Glibc

// broker-bench compares "Share call → the sheet's first frame" with this: the cheapest a GTK 4
// program can get a window on screen, started the same way (a fresh process on the same
// display, with the same GSK renderer). It prints `first-frame <CLOCK_MONOTONIC ns>` on
// standard output at the frame clock's first `after-paint` after the window is mapped, the
// same moment activity-sheet reports under ACTIVITY_SHEET_REPORT_FRAME, then exits 0.
// It exits 1 when the display cannot be opened.

/// The thunks capture nothing (docs/ui-notes.md, pitfall 2): they are plain C functions.
typealias SignalThunk = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

let afterPaint: SignalThunk = { _, _ in
    Floor.mark("first-frame")
    exit(0)
}

let mapped: SignalThunk = { widget, _ in
    guard let widget, let surface = gtk_native_get_surface(OpaquePointer(widget)),
        let clock = gdk_surface_get_frame_clock(surface)
    else { return }
    Floor.connect(UnsafeMutableRawPointer(clock), "after-paint", afterPaint)
}

guard let window = Floor.window(program: "gtk-first-frame", width: 420, height: 560) else { exit(1) }
gtk_window_set_child(cgtk_window(window), gtk_label_new("A bare GTK 4 window"))
Floor.connect(UnsafeMutableRawPointer(window), "map", mapped)
Floor.present(window)
Floor.run()
