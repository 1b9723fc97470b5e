// ACTIVITY_BROWSER_REPORT_PAINT: a line with the monotonic time of each window's first paint of its page, for broker-bench.
import CWebKit
import Glibc
import GtkSupport
import UIServiceSupport

/// broker-bench measures "Browse call → the window's first paint of the page" without linking
/// WebKit: when `ACTIVITY_BROWSER_REPORT_PAINT` is set, each window reports, once, the first
/// paint of its first finished page as a line `first-paint <CLOCK_MONOTONIC nanoseconds>`:
/// appended to the file (or FIFO) the variable names when it is an absolute path, else written
/// to standard error (the mechanism of the sheet's `ACTIVITY_SHEET_REPORT_FRAME`).
///
/// WebKit paints a while after `WEBKIT_LOAD_FINISHED`, in its web process, so the load event
/// alone would be early. "First paint" is the moment `webkit-first-paint` (the bench's floor)
/// uses too: after the load finished, the page's second `requestAnimationFrame` callback has
/// run (WebKit runs them before each rendering update, so the second follows the first
/// rendering of the loaded page) and its answer is back in this process. Unset (the normal
/// case), nothing runs in the page.
@MainActor
final class FirstPaintReport {
    /// The script `webkit-first-paint` runs as well.
    static let twoFrames = "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 1;"

    private let destination: String
    private var armed = true

    /// Nil when the variable is unset or empty.
    init?() {
        guard let value = g_getenv("ACTIVITY_BROWSER_REPORT_PAINT").map({ String(cString: $0) }), !value.isEmpty
        else { return nil }
        destination = value
    }

    /// The window's page view finished a load: reports its first paint, the first time only.
    func loadFinished(_ view: UnsafeMutablePointer<WebKitWebView>) {
        guard armed else { return }
        armed = false
        let destination = destination
        GAsync.start({ callback, data in
            webkit_web_view_call_async_javascript_function(
                view, Self.twoFrames, -1, nil, nil, nil, nil, callback, data)
        }) { result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
            if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
            if let message = GAsync.take(&error) {
                BrowserLog.write("first-paint script failed: \(message)")
                return
            }
            MonotonicMark.write("first-paint", to: destination)
        }
    }
}
