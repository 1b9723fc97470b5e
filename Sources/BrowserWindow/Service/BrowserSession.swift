// One browsing session: its window, its first load and the events it owes the broker.
import ActivityBrokerInterface
import DBus
import Foundation
import Navigation

/// Runs one window from `Open` to `Finished`: feeds the window's loads to `InitialLoad`,
/// sends the broker its events (through `send`), asks the broker for the Action sheet and
/// hands URLs to the system opener. Main thread.
///
/// `Finished` is sent exactly once, whatever ends the session first: the dismiss button or
/// its keys, the window manager's close, or the broker's `Close`.
@MainActor
final class BrowserSession {
    let handle: ObjectPath
    private let window: BrowserWindow
    private var initialLoad: InitialLoad
    private let exclude: [String]
    private let send: (BrowserEvent) -> Void
    private let share: (_ parentWindow: String, _ items: [String: Value], _ options: [String: Value]) -> Void
    private let opener: any URLOpening
    private let onClosed: (BrowserSession) -> Void
    private var finished = false
    /// A launch the page asked for is with the system opener: the page gets one at a time,
    /// and what it asks for meanwhile is dropped.
    private var pageOpenerRunning = false
    private var triggers = TriggerLimiter()

    init(
        request: BrowserRequest, engine: WebEngine, opener: any URLOpening,
        send: @escaping (BrowserEvent) -> Void,
        share: @escaping (String, [String: Value], [String: Value]) -> Void,
        onClosed: @escaping (BrowserSession) -> Void
    ) {
        handle = request.handle
        initialLoad = InitialLoad(requested: request.url)
        exclude = request.options.exclude
        self.send = send
        self.share = share
        self.opener = opener
        self.onClosed = onClosed
        window = BrowserWindow(engine: engine, options: request.options, policy: LinkPolicy())
        window.onCommand = { [weak self] command in
            if command == .dismiss { self?.close() }
        }
        window.onLoad = { [weak self] report in self?.loaded(report) }
        window.onAction = { [weak self] url, title in self?.askForSheet(url: url, title: title) }
        window.onOpenInBrowser = { [weak self] url in
            guard let self else { return }
            self.send(.willOpenInBrowser)
            self.openExternally(url)
        }
        window.onOpenExternally = { [weak self] url in self?.openForPage(url) }
        window.onRedirect = { [weak self] target, page in self?.redirected(to: target, page: page) }
        window.onPageCommitted = { [weak self] in self?.triggers.newPage() }
        window.present(startupID: request.options.activationToken, transientFor: request.parentWindow)
        if request.options.reportsClickActivation {
            window.watchActivation(within: Browser1.activationWindow) { [weak self] active in
                guard let self, !self.finished else { return }
                self.send(.clickActivated(active))
            }
        }
        let url = request.url
        engine.blockers.whenReady { [weak self] in self?.window.load(url) }
    }

    /// Ends the session: `Finished` (once), then the window goes.
    func close() {
        guard !finished else { return }
        finished = true
        send(.finished)
        window.destroy()
        onClosed(self)
    }

    private func loaded(_ report: LoadReport) {
        let events: [BrowserEvent]
        switch report {
        case .redirected:
            initialLoad.redirect()
            return
        case .finished(let uri): events = initialLoad.finish(at: uri)
        case .failed: events = initialLoad.fail()
        }
        for event in events { send(event) }
    }

    /// Tells the broker of a redirect only when it looks like a Private Click Measurement
    /// trigger (§11); other redirects are the user's browsing and stay here. `TriggerLimiter`
    /// bounds what a page can make the broker hear.
    private func redirected(to target: String, page: String) {
        guard !finished, let trigger = AttributionRedirect(target: target, page: page),
            triggers.admit(url: trigger.url, page: trigger.page)
        else { return }
        send(.attributionTrigger(url: trigger.url, page: trigger.page))
    }

    /// The Action button: a `Share` on the session's behalf with the page shown now.
    private func askForSheet(url: String, title: String) {
        guard !url.isEmpty else { return }
        var items: [String: Value] = [ItemKey.url: .string(url)]
        if !title.isEmpty { items[ItemKey.title] = .string(title) }
        let options: [String: Value] = [
            OptionKey.session: .objectPath(handle), OptionKey.exclude: .stringArray(exclude),
        ]
        share(window.parentWindowHandle, items, options)
    }

    /// A launch the page's click asked for: at most one at a time, so that a page cannot
    /// stack up handler apps faster than they start.
    private func openForPage(_ url: URL) {
        guard !pageOpenerRunning else {
            BrowserLog.debug("dropped a launch of '\(url.scheme?.lowercased() ?? ""):' while another runs")
            return
        }
        pageOpenerRunning = true
        openExternally(url) { [weak self] in self?.pageOpenerRunning = false }
    }

    private func openExternally(_ url: URL, then done: @escaping @MainActor () -> Void = {}) {
        let opener = opener
        Task.detached {
            do {
                try await opener.open(url)
            } catch {
                BrowserLog.write("cannot open \(LoggedURL(url)): \(error)")
            }
            await MainActor.run { done() }
        }
    }
}
