// Whether a window became the active window in time: the window's half of the gesture proof (API.md §11).
import CGtk
import DBus
import Dispatch
import GtkSupport

/// Watches one window's `is-active` and reports once: true as soon as it is active, false if
/// it has not become active by the deadline (the activation token was not honoured).
@MainActor
enum ActivationWatch {
    static func start(_ window: Widget, within: Duration, _ report: @escaping (Bool) -> Void) {
        let once = Once(report)
        if gtk_window_is_active(cgtk_window(window)) != 0 { return once.fire(true) }
        GtkSignals.connectWords(UnsafeMutableRawPointer(window), "notify::is-active", arguments: 1) { _ in
            if gtk_window_is_active(cgtk_window(window)) != 0 { once.fire(true) }
            return 0
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + within.dispatchInterval) {
            MainActor.assumeIsolated { once.fire(false) }
        }
    }

    /// A report made at most once.
    @MainActor
    private final class Once {
        private var report: ((Bool) -> Void)?
        init(_ report: @escaping (Bool) -> Void) { self.report = report }
        func fire(_ value: Bool) {
            let report = report
            self.report = nil
            report?(value)
        }
    }
}
