// What broker-bench's floors (gtk-first-frame, webkit-first-paint) share: GTK start-up, a window, the mark.
import CGtk
import Glibc

/// The bare start of a floor program: the cheapest way GTK 4 gets a window up, and the one
/// line it prints. Kept on CGtk alone (no GtkSupport, no D-Bus), so that a floor costs no more
/// than GTK itself.
public enum Floor {
    /// Initializes GTK and makes a window titled `program`, `width` × `height`; nil (after
    /// telling standard error) when the display cannot be opened. The caller gives it a child
    /// and connects its signals, then calls `present` and `run`.
    public static func window(program: String, width: Int32, height: Int32)
        -> UnsafeMutablePointer<GtkWidget>?
    {
        guard gtk_init_check() != 0 else {
            writeLine("\(program): cannot open the display\n", to: 2)
            return nil
        }
        let window = gtk_window_new()!
        gtk_window_set_title(cgtk_window(window), program)
        gtk_window_set_default_size(cgtk_window(window), width, height)
        return window
    }

    /// Connects `thunk` (a capture-free C function, docs/ui-notes.md, pitfall 2) to `signal` of `instance`.
    public static func connect<Thunk>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ thunk: Thunk) {
        g_signal_connect_data(
            instance, signal, unsafeBitCast(thunk, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
    }

    /// Shows `window`.
    public static func present(_ window: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_present(cgtk_window(window))
    }

    /// Runs GLib's main loop; the signal handlers exit.
    public static func run() {
        g_main_loop_run(g_main_loop_new(nil, 0))
    }

    /// Prints `<event> <CLOCK_MONOTONIC ns>` on standard output, the line broker-bench reads.
    public static func mark(_ event: String) {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        let nanoseconds = UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
        writeLine("\(event) \(nanoseconds)\n", to: 1)
    }

    /// One unbuffered `write(2)`: the line must be out before `exit`.
    public static func writeLine(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
