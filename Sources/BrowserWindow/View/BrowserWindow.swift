// The browser's GTK window: header bar (dismiss, back/forward, address, Reader, Action, Open in Browser) over a web view.
import CGtk
import CWebKit
import Dispatch
import Foundation
import GtkSupport
import Navigation

/// What happened to the loads of the page view, for the session's `InitialLoad`.
enum LoadReport {
    case redirected
    case finished(uri: String?)
    case failed
}

/// The window of one browsing session. It draws the page's state (address, security,
/// back/forward, Reader) and turns input into callbacks; the session decides what they mean
/// for the broker. Main thread only.
///
/// Layout: the header bar (`BrowserHeaderBar`) over the page view and, in Reader, the article
/// view (`ReaderPane`). This file wires the page view: loads, certificate errors, link policy.
@MainActor
final class BrowserWindow {
    let window: Widget
    private let webView: Widget
    private let engine: WebEngine
    private let options: BrowserOptions
    private let policy: LinkPolicy
    private let tint: TintStyle
    private let headerBar: BrowserHeaderBar
    private let reader: ReaderPane
    /// The URL whose certificate was refused, while its error page is shown. WebKit ends the
    /// refused load (failed, finished) around the start of the error page's own load, so the
    /// error stands until a load of another URL starts.
    private var certificateErrorURI: String?
    private var certificateError: Bool { certificateErrorURI != nil }
    /// The URL of the document shown: set when a load commits and by same-document changes
    /// (fragments, `pushState`). The address, the lock, the Action button and the redirects'
    /// `page` use it, never `webkit_web_view_get_uri`, which turns to the requested URL as soon
    /// as a load starts while the old page, and its TLS state, are still what is shown.
    private var committedURI: String?
    /// A load was asked for or has started and has not committed, failed or finished: a URI
    /// change now is the pending request's, not the shown document's.
    private var pendingLoad = false
    /// The window title last set (it is set again only when it changes).
    private var lastTitle: String?
    private var article: ReaderArticle?
    /// The bars are collapsed (the page scrolled down, `bar_collapsing_enabled`): only the
    /// address stays in the header bar; Esc and Ctrl+W still dismiss.
    private var collapsed = false
    private var destroyed = false
    /// Set only under ACTIVITY_BROWSER_REPORT_PAINT (broker-bench).
    private let paintReport = FirstPaintReport()

    var onCommand: (BrowserCommand) -> Void = { _ in }
    var onLoad: (LoadReport) -> Void = { _ in }
    var onAction: (_ url: String, _ title: String) -> Void = { _, _ in }
    var onOpenInBrowser: (URL) -> Void = { _ in }
    var onOpenExternally: (URL) -> Void = { _ in }
    /// A load of this view (main frame or subresource) was redirected: the new target and the
    /// main frame's URL when that load began.
    var onRedirect: (_ target: String, _ page: String) -> Void = { _, _ in }
    /// A new document was committed in the main frame.
    var onPageCommitted: () -> Void = {}

    private var view: UnsafeMutablePointer<WebKitWebView> { cwebkit_web_view(webView) }

    init(engine: WebEngine, options: BrowserOptions, policy: LinkPolicy) {
        self.engine = engine
        self.options = options
        self.policy = policy
        tint = TintStyle(control: options.controlTint, bar: options.barTint)
        window = gtk_window_new()
        gtk_window_set_default_size(cgtk_window(window), 1000, 700)
        Widgets.addClass(window, "activity-browser")
        Widgets.addClass(window, tint.windowClass)
        headerBar = BrowserHeaderBar(dismissTitle: options.dismissButtonStyle.title)
        gtk_window_set_titlebar(cgtk_window(window), headerBar.widget)

        webView = engine.makeWebView()
        gtk_widget_set_vexpand(webView, 1)
        gtk_widget_set_hexpand(webView, 1)
        reader = ReaderPane(engine: engine, pageView: webView)
        gtk_window_set_child(cgtk_window(window), reader.stack)

        connectControls()
        connectWebView()
        if options.barCollapsingEnabled {
            engine.onBarCollapse { [weak self] collapsed, url in
                self?.scrolled(collapsed: collapsed, url: url)
            }
        }
        render()
    }

    // MARK: Input

    private func connectControls() {
        headerBar.onDismiss = { [weak self] in self?.onCommand(.dismiss) }
        headerBar.onBack = { [weak self] in self?.perform(.back) }
        headerBar.onForward = { [weak self] in self?.perform(.forward) }
        headerBar.onReader = { [weak self] in self?.toggleReader() }
        headerBar.onAction = { [weak self] in
            guard let self else { return }
            self.onAction(self.currentURI ?? "", TitleText.forItem(self.pageTitle))
        }
        headerBar.onOpenInBrowser = { [weak self] in
            guard let self, let uri = self.currentURI, let url = URL(string: uri) else { return }
            self.onOpenInBrowser(url)
        }
        reader.onLink = { [weak self] url, gesture in
            self?.route(url, newWindow: true, userInitiated: true, userGesture: gesture)
        }
        GtkSignals.connectHandled(window, "close-request") { [weak self] in
            // We close the window ourselves, once the session has told the broker.
            self?.onCommand(.dismiss)
            return true
        }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        GtkSignals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, state in
            guard let self, let command = BrowserKeys.command(keyval, state) else { return false }
            self.perform(command)
            return true
        }
        gtk_widget_add_controller(window, keys)
    }

    /// Carries out a command of the keys or buttons; dismissing is the session's.
    func perform(_ command: BrowserCommand) {
        switch command {
        case .dismiss: onCommand(.dismiss)
        case .back:
            reader.showPage()
            guard webkit_web_view_can_go_back(view) != 0 else { return }
            pendingLoad = true
            webkit_web_view_go_back(view)
        case .forward:
            reader.showPage()
            guard webkit_web_view_can_go_forward(view) != 0 else { return }
            pendingLoad = true
            webkit_web_view_go_forward(view)
        case .focusAddress: headerBar.focusAddress()
        case .reload:
            reader.showPage()
            pendingLoad = true
            webkit_web_view_reload(view)
        }
    }

    // MARK: The page

    private func connectWebView() {
        let instance = UnsafeMutableRawPointer(webView)
        // load-changed(WebKitWebView*, WebKitLoadEvent)
        GtkSignals.connectWords(instance, "load-changed", arguments: 1) { [weak self] words in
            self?.loadChanged(words.uint32(at: 0))
            return 0
        }
        // load-failed(WebKitWebView*, WebKitLoadEvent, gchar *uri, GError*) → gboolean
        GtkSignals.connectWords(instance, "load-failed", arguments: 3) { [weak self] words in
            guard let self else { return 0 }
            self.pendingLoad = false
            self.onLoad(.failed)
            return 0  // WebKit shows its own error page
        }
        // load-failed-with-tls-errors(WebKitWebView*, gchar *uri, GTlsCertificate*, GTlsCertificateFlags) → gboolean
        GtkSignals.connectWords(instance, "load-failed-with-tls-errors", arguments: 3) { [weak self] words in
            guard let self, let uri = words.pointer(at: 0) else { return 0 }
            self.showCertificateError(
                uri: String(cString: uri.assumingMemoryBound(to: CChar.self)), flags: words.uint32(at: 2))
            return 1
        }
        // decide-policy(WebKitWebView*, WebKitPolicyDecision*, WebKitPolicyDecisionType) → gboolean
        GtkSignals.connectWords(instance, "decide-policy", arguments: 2) { [weak self] words in
            guard let self, let decision = words.pointer(at: 0) else { return 0 }
            return self.decide(decision, type: words.uint32(at: 1)) ? 1 : 0
        }
        // create(WebKitWebView*, WebKitNavigationAction*) → GtkWidget*: no new windows; the
        // link loads here instead. (`window.open` without a gesture never gets here: the
        // settings forbid scripts to open windows by themselves.)
        GtkSignals.connectWords(instance, "create", arguments: 1) { [weak self] words in
            guard let self, let action = words.pointer(at: 0).map(OpaquePointer.init) else { return 0 }
            let request = webkit_navigation_action_get_request(action)
            if let uri = webkit_uri_request_get_uri(request), let url = URL(string: String(cString: uri)) {
                self.route(
                    url, newWindow: true, userInitiated: true,
                    userGesture: webkit_navigation_action_is_user_gesture(action) != 0)
            }
            return 0
        }
        // enter-fullscreen(WebKitWebView*) → gboolean: refused (TRUE). Fullscreen hides the
        // address, the lock and Done, and a page could draw a fake bar in their place.
        GtkSignals.connectHandled(instance, "enter-fullscreen") { true }
        // permission-request(WebKitWebView*, WebKitPermissionRequest*) → gboolean: every request
        // (pointer lock, geolocation, notifications, media, clipboard, storage access…) is
        // denied here, explicitly, rather than left to WebKit's default.
        GtkSignals.connectWords(instance, "permission-request", arguments: 1) { words in
            guard let request = words.pointer(at: 0) else { return 0 }
            webkit_permission_request_deny(OpaquePointer(request))
            return 1
        }
        // web-process-terminated(WebKitWebView*, WebKitWebProcessTerminationReason): the page is
        // gone; say so, and end a first load that had not ended (so the app hears of it).
        GtkSignals.connectWords(instance, "web-process-terminated", arguments: 1) { [weak self] words in
            self?.webProcessTerminated(reason: words.uint32(at: 0))
            return 0
        }
        // resource-load-started(WebKitWebView*, WebKitWebResource*, WebKitURIRequest*): every
        // load, the main resource included; its redirects come as the resource's sent-request.
        GtkSignals.connectWords(instance, "resource-load-started", arguments: 2) { [weak self] words in
            guard let self, let resource = words.pointer(at: 0) else { return 0 }
            // The page shown (the requested URL only for a window's first load, before any commit).
            self.watchRedirects(of: resource, page: self.committedURI ?? self.engineURI ?? "")
            return 0
        }
        GtkSignals.connectWords(instance, "notify::uri", arguments: 1) { [weak self] _ in
            guard let self else { return 0 }
            // Outside a load, a URI change is the document's own (a fragment, `pushState`).
            if !self.pendingLoad { self.committedURI = self.engineURI }
            self.render()
            return 0
        }
        GtkSignals.connectWords(instance, "notify::title", arguments: 1) { [weak self] _ in
            self?.renderTitle()
            return 0
        }
    }

    /// Follows one resource's redirects: `sent-request(WebKitWebResource*, WebKitURIRequest*,
    /// WebKitURIResponse* redirected_response)`, where the response is non-NULL for a redirect.
    /// The handler goes with the resource.
    private func watchRedirects(of resource: UnsafeMutableRawPointer, page: String) {
        GtkSignals.connectWords(resource, "sent-request", arguments: 2) { [weak self] words in
            guard let self, let request = words.pointer(at: 0), words.pointer(at: 1) != nil,
                let uri = webkit_uri_request_get_uri(OpaquePointer(request))
            else { return 0 }
            self.onRedirect(String(cString: uri), page)
            return 0
        }
    }

    /// Loads `url` in the page view: the first load (which takes the focus), or one the window
    /// starts for the page. Every `load_uri` goes through here: WebKit's URI turns to `url` at
    /// once, and `pendingLoad` keeps it out of the address until the load commits.
    func load(_ url: URL, focus: Bool = true) {
        pendingLoad = true
        webkit_web_view_load_uri(view, url.absoluteString)
        if focus { gtk_widget_grab_focus(webView) }
    }

    private func loadChanged(_ event: UInt32) {
        switch event {
        case WEBKIT_LOAD_STARTED.rawValue:
            // The requested URL: a load of another one ends the certificate error.
            if engineURI != certificateErrorURI { certificateErrorURI = nil }
            pendingLoad = true
            reader.showPage()
        case WEBKIT_LOAD_REDIRECTED.rawValue:
            onLoad(.redirected)
        case WEBKIT_LOAD_COMMITTED.rawValue:
            pendingLoad = false
            committedURI = engineURI
            article = nil
            collapsed = false
            onPageCommitted()
        case WEBKIT_LOAD_FINISHED.rawValue:
            pendingLoad = false
            if !certificateError {
                onLoad(.finished(uri: currentURI))
                paintReport?.loadFinished(view)
                findArticle()
            }
        default: break
        }
        render()
    }

    private func showCertificateError(uri: String, flags: UInt32) {
        certificateErrorURI = uri
        pendingLoad = false
        onLoad(.failed)
        let problem = BrowserStrings.certificateProblem(flags)
        BrowserLog.write("certificate error for \(LoggedURL(uri)): \(problem)")
        render()
        // After WebKit has finished the refused load (it does so once this handler returns): an
        // error page started from inside the handler could be dropped with it.
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self, !self.destroyed, self.certificateErrorURI == uri else { return }
                webkit_web_view_load_alternate_html(
                    self.view, BrowserStrings.certificateErrorPage(url: uri, reason: problem), uri, nil)
            }
        }
    }

    /// The web process crashed or was ended (out of memory, a limit): an error page in its place,
    /// and the load under way reported failed (`InitialLoad` ignores it once the first load ended).
    private func webProcessTerminated(reason: UInt32) {
        guard !destroyed else { return }
        let why = BrowserStrings.webProcessProblem(reason)
        BrowserLog.write("the web process of \(LoggedURL(committedURI ?? engineURI ?? "")) ended: \(why)")
        pendingLoad = false
        onLoad(.failed)
        let shown = committedURI ?? engineURI
        webkit_web_view_load_alternate_html(view, BrowserStrings.webProcessErrorPage(reason: why), shown, nil)
        render()
    }

    /// Answers `decide-policy`: returns true when handled here (ignored, loaded here, or
    /// handed to the system); false lets WebKit decide.
    private func decide(_ decision: UnsafeMutableRawPointer, type: UInt32) -> Bool {
        if type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE.rawValue { return decideResponse(decision) }
        let isNewWindow = type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION.rawValue
        guard isNewWindow || type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION.rawValue else {
            return false
        }
        let navigation = cwebkit_navigation_decision(decision)
        guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
            let request = webkit_navigation_action_get_request(action),
            let uri = webkit_uri_request_get_uri(request)
        else { return false }
        let userGesture = webkit_navigation_action_is_user_gesture(action) != 0
        let userInitiated =
            userGesture
            || webkit_navigation_action_get_navigation_type(action) == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED
        let decisionPointer = decision.assumingMemoryBound(to: WebKitPolicyDecision.self)
        // WebKitGTK does not say which frame a navigation action is for; a frame's own load (its
        // `src`, a script, a redirect) carries no gesture, so it launches nothing.
        switch policy.decide(
            url: URL(string: String(cString: uri)), source: currentURI.flatMap(URL.init(string:)),
            newWindow: isNewWindow, userInitiated: userInitiated, userGesture: userGesture,
            redirect: webkit_navigation_action_is_redirect(action) != 0)
        {
        case .proceed:
            return false
        case .loadHere(let url):
            webkit_policy_decision_ignore(decisionPointer)
            load(url, focus: false)
        case .openExternally(let url):
            webkit_policy_decision_ignore(decisionPointer)
            onOpenExternally(url)
        case .discard(let reason):
            webkit_policy_decision_ignore(decisionPointer)
            BrowserLog.write("discarded a navigation: \(reason)")
        case .dropLaunch(let scheme):
            webkit_policy_decision_ignore(decisionPointer)
            BrowserLog.debug("dropped a launch of '\(scheme):' that no click asked for")
        }
        return true
    }

    /// A response: shown only if WebKit can show it and it is not an attachment. WebKit would
    /// download both (into ~/Downloads, silently); the browser downloads nothing (and
    /// `WebEngine` cancels any download that starts another way, such as `<a download>`).
    private func decideResponse(_ decision: UnsafeMutableRawPointer) -> Bool {
        let response = OpaquePointer(decision)
        let attachment =
            webkit_response_policy_decision_get_response(response).flatMap {
                webkit_uri_response_get_http_headers($0)
            }.flatMap { soup_message_headers_get_one($0, "Content-Disposition") }.map {
                String(cString: $0).trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("attachment")
            } ?? false
        guard attachment || webkit_response_policy_decision_is_mime_type_supported(response) == 0 else {
            return false
        }
        let uri = webkit_response_policy_decision_get_request(response).flatMap {
            webkit_uri_request_get_uri($0)
        }
        BrowserLog.write(
            "refused a download from \(LoggedURL(uri.map { String(cString: $0) } ?? "")): "
                + (attachment ? "an attachment" : "a type the browser cannot show"))
        webkit_policy_decision_ignore(decision.assumingMemoryBound(to: WebKitPolicyDecision.self))
        return true
    }

    /// A navigation that did not come through `decide-policy` (`create`, Reader's links).
    private func route(_ url: URL, newWindow: Bool, userInitiated: Bool, userGesture: Bool) {
        switch policy.decide(
            url: url, source: currentURI.flatMap(URL.init(string:)), newWindow: newWindow,
            userInitiated: userInitiated, userGesture: userGesture)
        {
        case .proceed, .loadHere: load(url, focus: false)
        case .openExternally(let url): onOpenExternally(url)
        case .discard(let reason): BrowserLog.write("discarded a navigation: \(reason)")
        case .dropLaunch(let scheme):
            BrowserLog.debug("dropped a launch of '\(scheme):' that no click asked for")
        }
    }

    /// A scroll report of `BarCollapse` for any page: this window's if the URL is its page's.
    private func scrolled(collapsed: Bool, url: String) {
        guard !destroyed, collapsed != self.collapsed, url == currentURI else { return }
        self.collapsed = collapsed
        render()
    }

    // MARK: Reader

    /// Runs the extraction script on the page just loaded; offers Reader when it found an article.
    private func findArticle() {
        let expected = currentURI
        GAsync.start({ callback, data in
            // In a world of its own, so the page's scripts cannot see or bend the extraction.
            webkit_web_view_evaluate_javascript(
                view, ReaderArticle.extractionScript, -1, "activity-browser-reader", nil, nil, callback, data)
        }) { [weak self] result in
            guard let self, !self.destroyed else { return }
            var error: UnsafeMutablePointer<GError>?
            guard let value = webkit_web_view_evaluate_javascript_finish(self.view, result, &error) else {
                BrowserLog.write("reader: \(GAsync.take(&error) ?? "")")
                return
            }
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            guard self.currentURI == expected, let text = jsc_value_to_string(value) else { return }
            defer { g_free(text) }
            let found = ReaderArticle(json: String(cString: text))
            self.article = found?.isArticle == true ? found : nil
            if self.article != nil, self.options.entersReaderIfAvailable { self.enterReader() }
            self.render()
        }
    }

    private func toggleReader() {
        if reader.isShowingArticle {
            reader.showPage()
        } else {
            enterReader()
        }
        render()
    }

    private func enterReader() {
        guard let article else { return }
        reader.show(article, baseURI: currentURI)
    }

    // MARK: Drawing

    /// The URL of the document shown (see `committedURI`).
    private var currentURI: String? { committedURI }

    /// WebKit's URI: the requested one while a load is pending.
    private var engineURI: String? {
        webkit_web_view_get_uri(view).map { String(cString: $0) }
    }

    private var pageTitle: String {
        webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
    }

    /// Draws the address, the security indicator, back/forward and Reader from the web view.
    func render() {
        guard !destroyed else { return }
        var certificate: UnsafeMutablePointer<GTlsCertificate>?
        var errors = GTlsCertificateFlags(rawValue: 0)
        // The TLS state is the committed document's until another commits, as the address is.
        let hasTLS = webkit_web_view_get_tls_info(view, &certificate, &errors) != 0
        headerBar.render(
            HeaderBarState(
                address: address(tlsVerified: hasTLS && errors.rawValue == 0),
                canGoBack: webkit_web_view_can_go_back(view) != 0,
                canGoForward: webkit_web_view_can_go_forward(view) != 0,
                hasArticle: article != nil, inReader: reader.isShowingArticle, collapsed: collapsed,
                canShare: currentURI != nil && !certificateError))
        renderTitle()
    }

    private func address(tlsVerified: Bool) -> AddressBar {
        AddressBar(
            url: currentURI.flatMap(URL.init(string:)), tlsVerified: tlsVerified,
            certificateError: certificateError)
    }

    private func renderTitle() {
        guard !destroyed else { return }
        // The error page's title is ours too, but the window says it before that page is drawn.
        let title = certificateError ? BrowserStrings.certificateErrorTitle : pageTitle
        let shown = TitleText.forWindow(title.isEmpty ? address(tlsVerified: false).site : title)
        // A page may change its title at any rate: the window manager hears only real changes.
        guard shown != lastTitle else { return }
        lastTitle = shown
        gtk_window_set_title(cgtk_window(window), shown)
    }

    // MARK: Showing and closing

    /// Shows the window (with the activation token, so it may take the focus).
    func present(startupID: String?, transientFor parent: ParentWindow) {
        if let startupID, !startupID.isEmpty { gtk_window_set_startup_id(cgtk_window(window), startupID) }
        parent.attach(window)
        gtk_window_present(cgtk_window(window))
    }

    /// Calls `report` once: true as soon as the window is the active window, false if it has
    /// not become active `within` after now (§11: the token was not honoured).
    func watchActivation(within: Duration, _ report: @escaping (Bool) -> Void) {
        ActivationWatch.start(window, within: within, report)
    }

    /// `x11:<hex XID>` of this window, for the sheet it asks for (empty off X11).
    var parentWindowHandle: String {
        let xid = cgtk_x11_xid(window)
        return xid == 0 ? "" : "x11:" + String(xid, radix: 16)
    }

    /// Destroys the window (idempotent).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        tint.remove()
        gtk_window_destroy(cgtk_window(window))
    }
}
