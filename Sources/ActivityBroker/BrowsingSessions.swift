// Broker1.Browse and Session1: opens browser windows for apps and passes their window's events to them alone.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// `Browse` (API.md §10): the broker gives the app a `Session1` object and asks the browser
/// service (`org.activitybroker.Browser`) to open a window for it under a handle only the two
/// of them know. The service reports through `Event(handle, name, details)` signals unicast to
/// the broker; the broker passes the four an app may know on to the session's owner, unicast,
/// and drops everything else. `ClickActivated` and `AttributionTrigger` go to `Attributions`
/// (Private Click Measurement, API.md §11; see `AttributionGesture` for the gesture proof).
///
/// Loop-confined (the connection's loop). Events are taken only from the current owner of
/// the browser's name (a match on its unique name, checked again locally): another
/// connection sending `Event` to the broker is ignored. A session ends, once:
/// - when the window finishes (`Event` `Finished`): `Finished` to the owner;
/// - when its owner calls `Close`: the window is closed, then `Finished` (a repeated `Close`
///   meanwhile succeeds and asks the browser service nothing more);
/// - when `Open` fails or the browser service leaves the bus: `Finished` to the owner;
/// - when the owner leaves the bus: the window is closed, nobody is told;
/// - at shutdown: the window is closed, `Finished` to the owner.
/// Then its object is unexported.
final class BrowsingSessions: @unchecked Sendable {
    private let connection: Connection
    private let browser: BrowserClient
    private let machine: any Environment
    private let graphical: Bool
    private let log: BrokerLog
    private let attributions: Attributions?
    /// How long a shown window's gesture proof may take (`BrokerConfiguration.gestureWindow`).
    private let gestureWindow: Duration
    private var sessions: [ObjectPath: BrowsingSession] = [:]
    private var countByOwner: [String: Int] = [:]
    /// The handles of sessions whose owner called `Close` and whose `Browser1.Close` is out:
    /// each has one call to the browser service in flight at most, however often `Close` comes.
    private var closing: Set<ObjectPath> = []
    private var nextNumber: UInt64 = 1
    /// The unique name owning `org.activitybroker.Browser`, nil when none.
    private(set) var browserOwner: String?
    private var ownerWatch: Subscription?
    private var events: Subscription?

    /// Sessions one connection may have open at once (`LimitExceeded` beyond): each is a
    /// window on the user's screen.
    static let maximumPerOwner = 16
    /// Sessions open at once across all connections (`LimitExceeded` beyond), as `JobTable`
    /// bounds running jobs: each holds an object, subscriptions and a window, and a caller can
    /// open connections as it likes.
    static let maximum = 64

    init(
        connection: Connection, browser: BrowserClient, machine: any Environment,
        environment: [String: String], log: BrokerLog, attributions: Attributions? = nil,
        gestureWindow: Duration
    ) {
        self.connection = connection
        self.browser = browser
        self.machine = machine
        self.graphical = GraphicalSession.isPresent(in: environment)
        self.log = log
        self.attributions = attributions
        self.gestureWindow = gestureWindow
    }

    /// Starts following the owner of `org.activitybroker.Browser` and its events. On the loop.
    func start() {
        connection.assertOnLoop()
        ownerWatch = connection.watchNameOwner(Browser1.busName) { [unowned self] owner in
            browserChanged(to: owner)
        }
    }

    /// The session whose window is `handle`, if it is served by `caller` (the browser service's
    /// `Share` with option `session`).
    func session(handle: ObjectPath, browser caller: String) -> BrowsingSession? {
        guard let session = sessions[handle], session.browser == nil || session.browser == caller else {
            return nil
        }
        return session
    }

    // MARK: Browse

    /// `Browse`: every check happens before the session exists; the window is asked for after
    /// the reply has gone out.
    func browse(parentWindow: String, url: String, options: [String: Value], caller: String)
        throws(ActivityError)
        -> ObjectPath
    {
        connection.assertOnLoop()
        let method = Broker1.browse.name.rawValue
        let request = try BrowseRequest.decode(parentWindow: parentWindow, url: url, options: options)
        guard graphical else {
            throw .unavailable(
                "\(method): no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set for the broker)")
        }
        guard browserOwner != nil || machine.hasBusName(Browser1.busName.rawValue) else {
            throw .unavailable(
                "\(method): no browser window is installed (\(Browser1.busName.rawValue) is neither running nor activatable)"
            )
        }
        let open = countByOwner[caller, default: 0]
        guard open < Self.maximumPerOwner else {
            throw .limitExceeded(
                "\(method): \(caller) already has \(open) browsing sessions (at most \(Self.maximumPerOwner) per connection)"
            )
        }
        guard sessions.count < Self.maximum else {
            throw .limitExceeded(
                "\(method): the broker already has \(sessions.count) browsing sessions open (at most \(Self.maximum) across all connections); try again when one finished"
            )
        }
        let session = BrowsingSession(
            number: nextNumber, token: Job.randomToken(), handle: BrowserClient.newHandle(), owner: caller,
            exclude: request.exclude, attribution: request.attribution, browser: browserOwner)
        nextNumber += 1
        do {
            try connection.export(session.path, interfaces: [sessionInterface(session)], listed: false)
        } catch {
            preconditionFailure("session paths are unique: \(error)")
        }
        sessions[session.handle] = session
        countByOwner[caller, default: 0] += 1
        session.subscriptions.append(
            connection.watchDisconnect(of: caller) { [unowned self] in
                guard sessions[session.handle] === session else { return }
                log.event("session \(session.number): its owner left; closing the window")
                // A Close already on its way needs no second one.
                if !closing.contains(session.handle) { browser.close(handle: session.handle) }
                end(session, tellOwner: false)
            })
        log.event("session \(session.number): browser window requested (by \(caller))")
        if session.attribution != nil, !AttributionGesture.hasToken(request.windowOptions) {
            session.attribution = nil
            log.debug("session \(session.number): click attribution discarded: no activation_token (no gesture proof)")
        }
        // Who is asking, for the window's title (display only), then the window — unless the
        // owner closed the session meanwhile: the lookup takes as long as the caller's files
        // let it, and a window opened after its Close would belong to no session.
        CallerApplication.lookUp(caller, on: connection) { [unowned self] appID in
            guard sessions[session.handle] === session, !closing.contains(session.handle) else { return }
            session.opening = browser.open(
                handle: session.handle, appID: appID,
                parentWindow: request.parentWindow, url: request.url.string, options: request.windowOptions
            ) { [unowned self] error in
                session.opening = nil
                guard sessions[session.handle] === session else { return }
                guard let error else {
                    startAttributionDeadline(session)
                    return
                }
                log.event("session \(session.number): the browser window could not open: \(error.name)")
                end(session, tellOwner: true)
            }
        }
        return session.path
    }

    // MARK: Events

    private func browserChanged(to owner: String?) {
        let previous = browserOwner
        browserOwner = owner
        if let events { connection.cancel(events) }
        events = nil
        if let owner {
            events = connection.addMatch(
                Browser1.event.rule(sender: owner, path: Browser1.objectPath)
            ) { [unowned self] signal in
                received(signal)
            }
        }
        for session in sessions.values.sorted(by: { $0.number < $1.number }) {
            if session.browser == nil, owner != nil {
                // Started for this session (or another): its window is served by the new owner.
                session.browser = owner
            } else if let served = session.browser, served != owner {
                log.event(
                    "session \(session.number): the browser service \(previous ?? served) left; the window is gone"
                )
                end(session, tellOwner: true)
            }
        }
    }

    /// One `Event(o handle, s name, a{sv} details)` from the browser service.
    private func received(_ signal: IncomingSignal) {
        guard signal.sender == browserOwner, signal.body.count == 3, let handle = signal.body[0].objectPath,
            let name = signal.body[1].string, let details = signal.body[2].vardict
        else { return }
        guard let session = sessions[handle], session.browser == nil || session.browser == signal.sender
        else {
            log.debug("an Event for no session of this browser service was ignored")
            return
        }
        session.browser = signal.sender
        typealias Name = Browser1.EventName
        switch name {
        case Name.initialLoadCompleted:
            guard !session.initialLoadCompleted, let success = details[Browser1.DetailKey.success]?.bool
            else { return }
            session.initialLoadCompleted = true
            tell(session, Session1.initialLoadCompleted, [.boolean(success)])
        case Name.initialLoadRedirected:
            guard !session.initialLoadCompleted, !session.initialLoadRedirected,
                let url = details[Browser1.DetailKey.url]?.string
            else { return }
            session.initialLoadRedirected = true
            tell(session, Session1.initialLoadRedirected, [.string(url)])
        case Name.willOpenInBrowser:
            tell(session, Session1.willOpenInBrowser, [])
        case Name.finished:
            log.event("session \(session.number): the window was closed")
            end(session, tellOwner: true)
        case Name.clickActivated:
            // Private Click Measurement's gesture proof (API.md §11). Never for the app.
            clickActivated(session, activated: details[Browser1.DetailKey.activated]?.bool == true)
        case Name.attributionTrigger:
            // Never for the app, never logged: the URLs stay here.
            guard let url = details[Browser1.DetailKey.url]?.string,
                let page = details[Browser1.DetailKey.page]?.string
            else { return }
            attributions?.recordTrigger(url: url, pageURL: page, session: "session \(session.number)")
        default:
            log.debug("session \(session.number): unknown browser event '\(name.prefix(64))' ignored")
        }
    }

    // MARK: Private Click Measurement

    /// The window is shown: the gesture proof has `gestureWindow` to arrive.
    private func startAttributionDeadline(_ session: BrowsingSession) {
        guard session.attribution != nil else { return }
        let deadline = DispatchWorkItem { [unowned self] in
            guard sessions[session.handle] === session, session.attribution != nil else { return }
            session.attribution = nil
            log.debug("session \(session.number): click attribution discarded: the window did not become active in time")
        }
        session.attributionDeadline = deadline
        // Debug only; says the window in force (the tests read it to see `--gesture-window` applied).
        log.debug("session \(session.number): the gesture proof may take \(gestureWindow)")
        connection.queue.asyncAfter(
            deadline: .now() + .nanoseconds(Int(gestureWindow.nanoseconds)), execute: deadline)
    }

    /// `ClickActivated(activated)`: keeps the session's click when the proof holds, once.
    private func clickActivated(_ session: BrowsingSession, activated: Bool) {
        guard let attribution = session.attribution else { return }
        session.attribution = nil
        session.attributionDeadline?.cancel()
        session.attributionDeadline = nil
        guard activated else {
            log.debug("session \(session.number): click attribution discarded: the window did not become active")
            return
        }
        attributions?.recordClick(attribution, session: session.number)
    }

    /// A `Session1` signal to the session's owner alone.
    private func tell(_ session: BrowsingSession, _ signal: SignalSignature, _ body: [Value]) {
        do {
            try connection.emit(signal.signal(at: session.path, body, to: try BusName(session.owner)))
        } catch {
            log.event("session \(session.number): could not send \(signal.name): \(error)")
        }
    }

    // MARK: Ending

    /// Ends the session once: `Finished` to the owner when `tellOwner`, then the object goes.
    private func end(_ session: BrowsingSession, tellOwner: Bool) {
        guard sessions.removeValue(forKey: session.handle) != nil else { return }
        closing.remove(session.handle)
        countByOwner[session.owner, default: 1] -= 1
        if countByOwner[session.owner] == 0 { countByOwner[session.owner] = nil }
        for subscription in session.subscriptions { connection.cancel(subscription) }
        session.subscriptions.removeAll()
        session.opening?.cancel()
        session.opening = nil
        session.attributionDeadline?.cancel()
        session.attributionDeadline = nil
        if tellOwner { tell(session, Session1.finished, []) }
        connection.unexport(session.path)
        log.event("session \(session.number): finished")
    }

    /// Closes every window (shutdown); their owners get `Finished`.
    func closeAll() {
        for session in sessions.values.sorted(by: { $0.number < $1.number }) {
            if !closing.contains(session.handle) { browser.close(handle: session.handle) }
            end(session, tellOwner: true)
        }
    }

    private func sessionInterface(_ session: BrowsingSession) -> Interface {
        Interface(
            Session1.interface,
            methods: [
                Session1.close.method(
                    .immediate { [unowned self] call in
                        guard call.sender == session.owner else {
                            throw ActivityError.accessDenied(
                                "only the connection that called Browse may close session \(session.number)")
                        }
                        guard sessions[session.handle] === session else { return [] }
                        // Asked already: the window is closing and Finished will follow.
                        guard closing.insert(session.handle).inserted else { return [] }
                        log.event("session \(session.number): close requested by its owner")
                        // Finished once the service has closed it (or could not): exactly once,
                        // whatever the service sends meanwhile.
                        browser.close(handle: session.handle) { [unowned self] in
                            end(session, tellOwner: true)
                        }
                        return []
                    })
            ],
            signals: Session1.signals.map(\.spec),
            propertyAccess: { sender in
                guard sender == session.owner else {
                    throw ActivityError.accessDenied(
                        "only the connection that called Browse may use its session")
                }
            })
    }
}
