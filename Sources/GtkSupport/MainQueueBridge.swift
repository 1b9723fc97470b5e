// Lets DispatchQueue.main run while GLib's main loop owns the main thread (docs/ui-notes.md, pitfall 3).
import CGtk
import Glibc

/// Drains libdispatch's main queue from GLib's main loop.
///
/// The D-Bus loop hands work to the window with `DispatchQueue.main.async`; without this bridge
/// those blocks would never run, because `g_main_loop_run` never returns to libdispatch.
public enum MainQueueBridge {
    /// Adds the main queue's eventfd to the default GLib context. Call once, on the main thread,
    /// before running the GLib loop.
    public static func install() {
        let callback: GUnixFDSourceFunc = { fd, _, _ in
            // Read the eventfd counter first: left unread it stays readable and GLib spins.
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return 1  // G_SOURCE_CONTINUE
        }
        g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, callback, nil)
    }
}
