// NavigationSession: an in-app browsing session whose Action button is the activity broker.

import ActivityBrokerClient
import Foundation

/// An in-app browsing session, after `SFSafariViewController`: a history with back and
/// forward, a read-only address with a security indicator, an Action button backed by the
/// broker plus the app's own activities, Open in Browser, Done, and a reader view.
///
/// An actor: all state changes happen on it, and delegate callbacks are made from it.
/// Pages are loaded once and kept in the history; `goBack()` and `goForward()` show the
/// kept page without loading again (`reload()` loads again). A navigation started while
/// another is loading supersedes it: the older one ends with `.load(.cancelled)` and
/// changes nothing. After `done()` or `openInBrowser()`, every operation throws `.finished`.
///
/// ```swift
/// let session = NavigationSession(
///     url: url, configuration: NavigationConfiguration(excludedActivities: ["category:share"]),
///     loader: PageLoader(), offering: brokerProxy, delegate: self)
/// try await session.start()                      // didCompleteInitialLoad(success:)
/// print(await session.security, await session.address?.text ?? "", await session.title ?? "")
/// let sheet = try await session.actionActivities()  // share row, action row
/// let outcome = try await session.perform(sheet.actionRow[0].id)
/// try await session.openInBrowser()              // or: await session.done()
/// ```
public actor NavigationSession {
    /// The URL the session was opened with.
    public nonisolated let initialURL: URL
    /// How the session looks and what its sheet offers.
    public nonisolated let configuration: NavigationConfiguration

    private let loader: any PageLoading
    private let offering: (any ActivityOffering)?
    private let opener: any URLOpening
    private weak var delegate: (any NavigationSessionDelegate)?
    private var history = NavigationHistory<NavigationEntry>()
    private var started = false
    private var isFinishedFlag = false
    /// Bumped by every navigation, history move and finish; a load whose number is no
    /// longer current was superseded.
    private var generation = 0
    /// The load in progress, cancelled when a newer navigation, a history move or the end
    /// of the session supersedes it.
    private var inFlight: Task<NavigationEntry, Never>?

    /// Creates a session for `url`; nothing is loaded until `start()`.
    ///
    /// - Parameters:
    ///   - loader: where pages come from (the terminal's `PageLoader`, a web view).
    ///   - offering: the broker; `nil` offers only the app's own activities.
    ///   - opener: where Open in Browser and system routes go; `xdg-open` by default.
    ///   - delegate: held weakly, like `SFSafariViewController.delegate`.
    public init(
        url: URL, configuration: NavigationConfiguration = NavigationConfiguration(), loader: any PageLoading,
        offering: (any ActivityOffering)? = nil, opener: any URLOpening = SystemURLOpener(),
        delegate: (any NavigationSessionDelegate)? = nil
    ) {
        self.initialURL = url
        self.configuration = configuration
        self.loader = loader
        self.offering = offering
        self.opener = opener
        self.delegate = delegate
    }

    /// Replaces the delegate (held weakly).
    public func setDelegate(_ delegate: (any NavigationSessionDelegate)?) {
        self.delegate = delegate
    }

    // MARK: - State

    /// The current entry.
    public var currentEntry: NavigationEntry? { history.current }
    /// The URL shown (after redirects).
    public var currentURL: URL? { history.current?.url }
    /// The current page's title.
    public var title: String? { history.current?.title }
    /// Why the current page did not load, if it did not.
    public var loadError: PageLoadError? { history.current?.error }
    /// The indicator next to the address.
    public var security: SecurityIndicator? { history.current?.security }
    /// The host shown in the read-only address, registrable domain to emphasise.
    public var address: SiteAddress? { history.current?.address }
    /// The current page's links.
    public var links: [PageLink] { history.current?.page?.metadata.links ?? [] }
    /// Whether `goBack()` would move.
    public var canGoBack: Bool { history.canGoBack }
    /// Whether `goForward()` would move.
    public var canGoForward: Bool { history.canGoForward }
    /// The entries behind the current one, most recent last.
    public var backList: [NavigationEntry] { history.backList }
    /// The entries ahead of the current one, nearest first.
    public var forwardList: [NavigationEntry] { history.forwardList }
    /// Whether the session has ended.
    public var isFinished: Bool { isFinishedFlag }
    /// Whether a page is loading.
    public var isLoading: Bool { inFlight != nil }

    // MARK: - Navigation

    /// Loads the initial URL. Calls `initialLoadDidRedirectTo` (when redirected) and then
    /// `didCompleteInitialLoad` exactly once; a second call does nothing.
    ///
    /// - Throws: `.load` when the initial page did not load (it is in the history all the
    ///   same), `.finished` after the session ended.
    public func start() async throws(NavigationError) {
        guard !isFinishedFlag else { throw .finished }
        guard !started else { return }
        started = true
        let entry = await load(initialURL, replacingCurrent: false)
        guard let entry else {
            delegate?.navigationSession(self, didCompleteInitialLoad: false)
            throw .load(.cancelled)
        }
        if entry.wasRedirected { delegate?.navigationSession(self, initialLoadDidRedirectTo: entry.url) }
        delegate?.navigationSession(self, didCompleteInitialLoad: entry.error == nil)
        if let error = entry.error { throw .load(error) }
    }

    /// Loads `url` as a new entry; the forward list is dropped.
    ///
    /// - Throws: `.load` when it did not load (the failed entry is current all the same),
    ///   `.notStarted`, `.finished`.
    public func navigate(to url: URL) async throws(NavigationError) {
        try checkActive()
        guard let entry = await load(url, replacingCurrent: false) else { throw .load(.cancelled) }
        if let error = entry.error { throw .load(error) }
    }

    /// Loads the current entry again, replacing it.
    public func reload() async throws(NavigationError) {
        try checkActive()
        guard let current = history.current else { throw .notStarted }
        guard let entry = await load(current.requestedURL, replacingCurrent: true) else {
            throw .load(.cancelled)
        }
        if let error = entry.error { throw .load(error) }
    }

    /// Moves back one entry (showing the page as it was loaded); `false` when there is none.
    @discardableResult
    public func goBack() throws(NavigationError) -> Bool {
        try checkActive()
        supersede()
        return history.goBack() != nil
    }

    /// Moves forward one entry; `false` when there is none.
    @discardableResult
    public func goForward() throws(NavigationError) -> Bool {
        try checkActive()
        supersede()
        return history.goForward() != nil
    }

    /// Opens `url` as the configuration's router decides, with the current page as the
    /// source: in the session (`handled`), through the system opener (`systemAction`), or
    /// not at all (`discarded`). Returns the router's decision.
    ///
    /// - Throws: what `navigate(to:)` throws, or `.opener`.
    @discardableResult
    public func open(_ url: URL) async throws(NavigationError) -> RouteOutcome {
        try checkActive()
        let outcome = configuration.router.route(url, from: history.current?.url)
        switch outcome.action {
        case .handled:
            try await navigate(to: url)
        case .systemAction(let rewritten):
            do { try await opener.open(rewritten ?? url) } catch { throw .opener(error) }
        case .discarded:
            break
        }
        return outcome
    }

    /// Loads `url` and records the entry; `nil` when a newer navigation superseded it or
    /// the calling task was cancelled. The transfer runs in a task of its own so that a
    /// superseding navigation can cancel it.
    private func load(_ url: URL, replacingCurrent: Bool) async -> NavigationEntry? {
        let url = URLRouter.normalized(url)
        supersede()
        let mine = generation
        let loader = self.loader
        let task = Task { () -> NavigationEntry in
            do throws(PageLoadError) {
                return NavigationEntry(page: try await loader.load(url))
            } catch {
                return NavigationEntry(failedURL: url, error: error)
            }
        }
        inFlight = task
        let entry = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        guard mine == generation, !isFinishedFlag else { return nil }
        inFlight = nil
        // The caller's task was cancelled: like a stopped load, it leaves no entry.
        if entry.error == .cancelled { return nil }
        if replacingCurrent { history.replaceCurrent(entry) } else { history.push(entry) }
        return entry
    }

    /// Makes any load in progress stale and cancels its transfer.
    private func supersede() {
        generation += 1
        inFlight?.cancel()
        inFlight = nil
    }

    private func checkActive() throws(NavigationError) {
        guard !isFinishedFlag else { throw .finished }
        guard started else { throw .notStarted }
    }

    // MARK: - Sharing

    /// The URL the Action sheet shares: the page's canonical URL when it is on the same
    /// site (same registrable domain) and not a downgrade from https to http; otherwise
    /// the current URL. A canonical URL on another site could make the app share a page
    /// other than the one the user saw, so it is ignored. User-info (`user:password@`) is
    /// removed: credentials must never reach an activity.
    public var shareURL: URL? {
        guard let entry = history.current else { return nil }
        guard let canonical = entry.page?.metadata.canonicalURL, SiteAddress.sameSite(canonical, entry.url)
        else {
            return Self.withoutUserInfo(entry.url)
        }
        if entry.url.scheme?.lowercased() == "https", canonical.scheme?.lowercased() != "https" {
            return Self.withoutUserInfo(entry.url)
        }
        return Self.withoutUserInfo(canonical)
    }

    /// `url` without its user and password.
    static func withoutUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// The items the Action sheet acts on: the share URL and the title, unless the
    /// delegate supplies others.
    public func activityItems() throws(NavigationError) -> SharedItems {
        guard let entry = history.current, let url = shareURL else { throw .notStarted }
        return delegate?.navigationSession(self, activityItemsFor: url, title: entry.title)
            ?? SharedItems(url: url.absoluteString, title: entry.title)
    }

    /// The configuration's exclusions plus the delegate's for the current page (asked with
    /// the page's share URL and title, whatever items the delegate substituted).
    private func exclusions() -> [String] {
        guard let url = shareURL else { return configuration.excludedActivities }
        return configuration.excludedActivities
            + (delegate?.navigationSession(self, excludedActivitiesFor: url, title: history.current?.title)
                ?? [])
    }

    /// What the Action button shows: the broker's activities for the page merged with the
    /// app's own, less the exclusions, in a share row and an action row.
    ///
    /// An app activity with the same id as a broker one replaces it. When the broker
    /// cannot be asked, the sheet has the app's activities and says why in `brokerError`.
    public func actionActivities() async throws(NavigationError) -> ActivitySheet {
        guard !isFinishedFlag else { throw .finished }
        let items = try activityItems()
        let excluded = exclusions()
        var offered: [OfferedActivity] = []
        var brokerError: String?
        if let offering {
            do {
                offered = try await offering.offeredActivities(
                    for: items, excluding: excluded, locale: configuration.locale)
            } catch {
                brokerError = String(describing: error)
            }
        }
        let custom = configuration.customActivities.map(\.offered)
            .filter { !isExcluded(id: $0.id, category: $0.category, by: excluded) }
        let customIDs = Set(configuration.customActivities.map(\.id))
        // The broker applies the exclusions too; filtering again keeps them binding when
        // it is another implementation.
        offered = offered.filter {
            !customIDs.contains($0.id) && !isExcluded(id: $0.id, category: $0.category, by: excluded)
        }
        let all = custom + offered
        return ActivitySheet(
            items: items, shareRow: all.filter { $0.category == "share" },
            actionRow: all.filter { $0.category != "share" },
            brokerError: brokerError)
    }

    /// Performs activity `id` on the current items: the app's own in-process, any other
    /// through the broker. Returns how it ended.
    ///
    /// While exclusions are in effect, a broker activity is first looked up in the broker's
    /// offer for the items (one `ListActivities` round trip): `Perform` knows nothing of
    /// exclusions, and an excluded category must stay excluded.
    ///
    /// - Throws: `.notOffered` when excluded or (with exclusions) not offered, `.noBroker`,
    ///   `.broker` with the broker's error.
    public func perform(_ id: String) async throws(NavigationError) -> ActivityOutcome {
        guard !isFinishedFlag else { throw .finished }
        let items = try activityItems()
        let excluded = exclusions()
        if let custom = configuration.customActivities.first(where: { $0.id == id }) {
            guard !isExcluded(id: id, category: custom.offered.category, by: excluded) else {
                throw .notOffered(id: id)
            }
            return await custom.handler(items)
        }
        if excluded.contains(id) { throw .notOffered(id: id) }
        guard let offering else { throw .noBroker }
        do {
            if !excluded.isEmpty {
                let offers = try await offering.offeredActivities(
                    for: items, excluding: excluded, locale: configuration.locale)
                guard let offer = offers.first(where: { $0.id == id }),
                    !isExcluded(id: id, category: offer.category, by: excluded)
                else { throw NavigationError.notOffered(id: id) }
            }
            return try await offering.performActivity(id, items: items)
        } catch let error as NavigationError {
            throw error
        } catch {
            throw .broker(error)
        }
    }

    // MARK: - Reader

    /// Whether the current page has reader text (whatever `entersReaderIfAvailable` says).
    public var isReaderAvailable: Bool { history.current?.page?.metadata.reader != nil }

    /// The current page as plain text — title, then paragraphs — when the configuration
    /// enters reader mode and the page has an article, a main block or a cluster of paragraphs.
    public func readerView() -> String? {
        guard configuration.entersReaderIfAvailable else { return nil }
        return history.current?.page?.metadata.reader?.plainText
    }

    // MARK: - Ending

    /// Hands the current URL to the system opener and ends the session. Calls
    /// `willOpenInBrowser` before and `didFinish` after.
    ///
    /// - Throws: `.opener` when the opener failed (the session goes on), `.finished`.
    public func openInBrowser() async throws(NavigationError) {
        guard !isFinishedFlag else { throw .finished }
        let url = history.current?.url ?? initialURL
        delegate?.navigationSessionWillOpenInBrowser(self)
        do { try await opener.open(url) } catch { throw .opener(error) }
        finish()
    }

    /// Ends the session (the dismiss button); calls `didFinish` once, later calls do nothing.
    public func done() {
        finish()
    }

    private func finish() {
        guard !isFinishedFlag else { return }
        isFinishedFlag = true
        supersede()
        delegate?.navigationSessionDidFinish(self)
    }
}
