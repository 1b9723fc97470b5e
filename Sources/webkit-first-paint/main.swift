// webkit-first-paint: a bare WebKitWebView that loads one URL, prints the monotonic time of its first paint and exits (broker-bench's floor).
import CGtk
import CWebKit
import FloorSupport
import Glibc

// broker-bench compares "Browse call → the browser window's first paint of the page" with
// this: the cheapest a WebKitGTK program can get the same page on screen, started the same
// way (a fresh process on the same display, with the same GSK renderer). "First paint" is
// the moment activity-browser reports under ACTIVITY_BROWSER_REPORT_PAINT: after the load's
// WEBKIT_LOAD_FINISHED, the page's second requestAnimationFrame callback has run (WebKit
// runs rAF callbacks before each rendering update, so the second one follows the first
// rendering of the loaded page) and its answer is back in this process. It prints
// `first-paint <CLOCK_MONOTONIC ns>` on standard output and exits 0; 1 when the display
// cannot be opened or no URL is given, 2 when the load fails.

/// The thunks capture nothing (docs/ui-notes.md, pitfall 2): they are plain C functions.
typealias LoadChangedThunk = @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void
typealias LoadFailedThunk =
    @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
    -> gboolean

/// The script both this program and activity-browser run after the load finished.
let twoFrames = "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 1;"

let painted: GAsyncReadyCallback = { view, result, _ in
    var error: UnsafeMutablePointer<GError>?
    let value = webkit_web_view_call_async_javascript_function_finish(
        UnsafeMutablePointer<WebKitWebView>(OpaquePointer(view)), result, &error)
    guard error == nil else {
        Floor.writeLine("webkit-first-paint: the frame script failed\n", to: 2)
        exit(2)
    }
    Floor.mark("first-paint")
    if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
    exit(0)
}

let loadChanged: LoadChangedThunk = { view, event, _ in
    guard let view, event == WEBKIT_LOAD_FINISHED.rawValue else { return }
    webkit_web_view_call_async_javascript_function(
        UnsafeMutablePointer<WebKitWebView>(OpaquePointer(view)), twoFrames, -1, nil, nil, nil, nil, painted, nil)
}

let loadFailed: LoadFailedThunk = { _, _, uri, _, _ in
    Floor.writeLine("webkit-first-paint: the load of \(uri.map { String(cString: $0) } ?? "?") failed\n", to: 2)
    exit(2)
}

guard CommandLine.arguments.count == 2 else {
    Floor.writeLine("usage: webkit-first-paint URL\n", to: 2)
    exit(1)
}
guard let window = Floor.window(program: "webkit-first-paint", width: 1000, height: 700) else { exit(1) }
let webView = webkit_web_view_new()!
gtk_window_set_child(cgtk_window(window), webView)
Floor.connect(UnsafeMutableRawPointer(webView), "load-changed", loadChanged)
Floor.connect(UnsafeMutableRawPointer(webView), "load-failed", loadFailed)
Floor.present(window)
webkit_web_view_load_uri(cwebkit_web_view(webView), CommandLine.arguments[1])
Floor.run()
