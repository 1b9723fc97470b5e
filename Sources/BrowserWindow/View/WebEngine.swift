// The WebKit state every window shares: the browser's own network session and the content blockers.
import CGtk
import CWebKit
import Foundation
import GtkSupport

/// One network session (website data in `$XDG_DATA_HOME/activity-broker/web/`, cache in
/// `$XDG_CACHE_HOME/activity-broker/web/`: the browser's own, never an app's) and one user
/// content manager carrying the compiled content blockers, used by every web view. Main thread.
@MainActor
final class WebEngine {
    let session: OpaquePointer
    let contentManager: OpaquePointer
    let blockers: ContentBlockers
    /// Called with each scroll report of `BarCollapse` (collapsed, page URL). The manager is
    /// shared, so its message carries no web view: windows match it by their page's URL.
    private var scrollListeners: [(_ collapsed: Bool, _ url: String) -> Void] = []

    init(environment: [String: String]) {
        let paths = WebsiteDataPaths(environment: environment)
        for directory in [paths.data, paths.cache, paths.compiledFilters] {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        session = webkit_network_session_new(paths.data, paths.cache)
        // A certificate error fails the load (WebKit's default, spelled out): the window then
        // shows its error page, never the page.
        webkit_network_session_set_tls_errors_policy(session, WEBKIT_TLS_ERRORS_POLICY_FAIL)
        Self.refuseDownloads(on: session)
        contentManager = webkit_user_content_manager_new()
        blockers = ContentBlockers(
            sources: ContentBlockerSources(environment: environment), storePath: paths.compiledFilters,
            manager: contentManager)
        installBarCollapse()
    }

    /// Cancels every download as it starts: the browser saves nothing to disk for a page.
    /// WebKit would otherwise write `<a download>` links and `Content-Disposition: attachment`
    /// responses to ~/Downloads without asking (the windows also refuse such responses in
    /// their response policy; this catches what starts as a download).
    private static func refuseDownloads(on session: OpaquePointer) {
        // download-started(WebKitNetworkSession*, WebKitDownload*)
        GtkSignals.connectWords(UnsafeMutableRawPointer(session), "download-started", arguments: 1) { words in
            guard let download = words.pointer(at: 0).map(OpaquePointer.init) else { return 0 }
            let uri = webkit_download_get_request(download).flatMap { webkit_uri_request_get_uri($0) }
            BrowserLog.write("refused a download from \(LoggedURL(uri.map { String(cString: $0) } ?? ""))")
            webkit_download_cancel(download)
            return 0
        }
    }

    /// Adds `BarCollapse.script` to every top frame and routes its messages to the listeners.
    private func installBarCollapse() {
        let script = webkit_user_script_new_for_world(
            BarCollapse.script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
            WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END,
            BarCollapse.world, nil, nil)
        webkit_user_content_manager_add_script(contentManager, script)
        webkit_user_script_unref(script)
        webkit_user_content_manager_register_script_message_handler(
            contentManager, BarCollapse.handler, BarCollapse.world)
        // script-message-received::NAME(WebKitUserContentManager*, JSCValue*)
        GtkSignals.connectWords(
            UnsafeMutableRawPointer(contentManager), "script-message-received::" + BarCollapse.handler,
            arguments: 1
        ) { [weak self] words in
            guard let self, let value = words.pointer(at: 0),
                let text = jsc_value_to_string(OpaquePointer(value))
            else { return 0 }
            defer { g_free(text) }
            guard let report = BarCollapse.parse(String(cString: text)) else { return 0 }
            for listener in self.scrollListeners { listener(report.collapsed, report.url) }
            return 0
        }
    }

    /// Adds a listener for the pages' scroll reports (see `BarCollapse`).
    func onBarCollapse(_ listener: @escaping (_ collapsed: Bool, _ url: String) -> Void) {
        scrollListeners.append(listener)
    }

    /// A new web view on the shared session and content manager.
    func makeWebView() -> Widget {
        let view = cwebkit_web_view_new(session, contentManager)!
        if let settings = webkit_web_view_get_settings(cwebkit_web_view(view)) {
            webkit_settings_set_enable_developer_extras(settings, 0)
            webkit_settings_set_javascript_can_open_windows_automatically(settings, 0)
        }
        return view
    }
}
