// A typed proxy for org.activitybroker.Broker1: what an app or the share command calls.
import ActivityBrokerInterface
import DBus
import Foundation

/// Calls the broker over D-Bus with typed arguments and errors.
///
/// Thread-safe: every call hops onto the connection's loop; results arrive through
/// `async` functions. One proxy per connection is enough; it can be shared.
public final class BrokerProxy: Sendable {
    public static let busName = Broker1.busName
    public static let objectPath = Broker1.objectPath
    public static let interface = Broker1.interface

    public let connection: Connection
    /// The bus address, for messages that say where no broker answered.
    public let address: String
    /// How long a call waits for the broker (activation included).
    public let callTimeout: Duration
    private let jobs: JobWaiter

    /// Uses an existing connection (the app's own).
    public init(
        connection: Connection, address: String = "the session bus", callTimeout: Duration = .seconds(25)
    ) {
        self.connection = connection
        self.address = address
        self.callTimeout = callTimeout
        self.jobs = JobWaiter(connection: connection)
    }

    /// Connects to `bus` and returns a proxy on that new connection.
    public static func connect(bus: BusAddress = .session) throws(BrokerError) -> BrokerProxy {
        let address = describe(bus)
        do {
            return BrokerProxy(connection: try Connection(bus: bus), address: address)
        } catch {
            throw .unreachable(address: address, message: error.message, name: error.name)
        }
    }

    /// A readable form of a bus address for error messages.
    public static func describe(_ bus: BusAddress) -> String {
        switch bus {
        case .session:
            ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"].map { "the session bus (\($0))" }
                ?? "the session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
        case .system: "the system bus"
        case .address(let address): address
        }
    }

    // MARK: - Queries

    /// `ListActivities`: the activities that apply to `items`, in presentation order.
    public func activities(
        for items: SharedItems, locale: String? = nil, exclude: [String] = [], includeOwn: Bool = false
    ) async throws(BrokerError) -> [OfferedActivity] {
        var options: [String: Value] = [:]
        if let locale { options[OptionKey.locale] = .string(locale) }
        if !exclude.isEmpty { options[OptionKey.exclude] = .stringArray(exclude) }
        if includeOwn { options[OptionKey.includeOwn] = .boolean(true) }
        let reply = try await call(Broker1.listActivities, [.vardict(items.vardict), .vardict(options)])
        return (reply.first?.array ?? []).compactMap { $0.vardict.map(OfferedActivity.init(record:)) }
    }

    /// `ListRegistered`: every activity, with `available` and `reason`.
    public func registered(locale: String? = nil) async throws(BrokerError) -> [OfferedActivity] {
        var options: [String: Value] = [:]
        if let locale { options[OptionKey.locale] = .string(locale) }
        let reply = try await call(Broker1.listRegistered, [.vardict(options)])
        return (reply.first?.array ?? []).compactMap { $0.vardict.map(OfferedActivity.init(record:)) }
    }

    /// `Explain`: whether `id` is offered for `items`, and the rule that decided.
    public func explain(_ id: String, items: SharedItems) async throws(BrokerError) -> (
        applies: Bool, reason: String
    ) {
        let reply = try await call(Broker1.explain, [.string(id), .vardict(items.vardict)])
        return (reply.first?.bool ?? false, reply.dropFirst().first?.string ?? "")
    }

    /// `ClearAttributions`: forgets pending Private Click Measurement clicks and reports.
    public func clearAttributions() async throws(BrokerError) {
        _ = try await call(Broker1.clearAttributions, [])
    }

    /// `ReportAttributionTrigger`: a Private Click Measurement trigger the terminal's browsing
    /// session followed (`share browse`). `package`: the broker accepts it only from the `share`
    /// executable, so it is no part of the library apps link. Waits at most 5 s: a page load waits for it.
    package func reportAttributionTrigger(url: String, page: String) async throws(BrokerError) {
        do {
            _ = try await connection.call(
                Broker1.call(Broker1.reportAttributionTrigger, [.string(url), .string(page)]), timeout: .seconds(5))
        } catch {
            throw BrokerError(error, address: address)
        }
    }

    /// `ClearHistory`: forgets the usage ranking.
    public func clearHistory() async throws(BrokerError) {
        _ = try await call(Broker1.clearHistory, [])
    }

    /// The broker's `Version` property.
    public func version() async throws(BrokerError) -> String {
        let get = MethodCall(
            destination: Broker1.busName, path: Broker1.objectPath, interface: .properties, member: "Get",
            body: [.string(Broker1.interface.rawValue), .string(Broker1.version.name.rawValue)])
        let reply = try await send(get)
        return reply.first?.unwrapped.string ?? ""
    }

    // MARK: - Perform

    /// Performs `id` on `items` and returns when its job finishes.
    ///
    /// The `Finished` match is in place before `Perform` is called, so no ending is missed.
    /// Cancelling the calling task cancels the job (`Job1.Cancel`) and returns its
    /// `cancelled` outcome — also when it happens while `Perform` is on its way; a task
    /// cancelled before the call returns `cancelled` without starting anything. A broker that
    /// sends no `Finished` after `Cancel` is not waited for: `cancelled` comes at the latest a
    /// second (`JobCancellation.finishedGrace`) after `Cancel` was answered, failed or timed
    /// out (5 s). When the broker leaves the bus mid-job, the outcome is `failed`. `onStarted`
    /// runs with the job path once the broker accepted it.
    public func perform(
        _ id: String, items: SharedItems, activationToken: String? = nil, timeout: UInt32? = nil,
        onStarted: (@Sendable (ObjectPath) -> Void)? = nil
    ) async throws(BrokerError) -> ActivityOutcome {
        var options: [String: Value] = [:]
        if let activationToken { options[OptionKey.activationToken] = .string(activationToken) }
        if let timeout { options[OptionKey.timeout] = .uint32(timeout) }
        let body: [Value] = [.string(id), .vardict(items.vardict), .vardict(options)]
        return try await runJob(Broker1.perform, body, onStarted: onStarted)
    }

    // MARK: - Share

    /// Shows the desktop's share sheet for `items` (`Share`, API.md §10) and returns when its
    /// job finishes: `cancelled` when the user dismissed the sheet, otherwise the chosen
    /// activity's outcome, whose results carry `activity_id`.
    ///
    /// `parentWindow` follows the portal convention: `""`, `x11:<hex XID>` or
    /// `wayland:<xdg-foreign handle>`. Throws before any sheet is shown: `notApplicable`
    /// (nothing to offer), `unavailable` (no graphical session or no sheet service),
    /// `invalidArgument`, `limitExceeded`. Cancelling the task closes the sheet (or cancels the
    /// chosen activity) and returns `cancelled`, as for `perform`.
    public func share(
        parentWindow: String = "", items: SharedItems, options: ShareOptions = ShareOptions(),
        onStarted: (@Sendable (ObjectPath) -> Void)? = nil
    ) async throws(BrokerError) -> ActivityOutcome {
        let body: [Value] = [.string(parentWindow), .vardict(items.vardict), .vardict(options.vardict)]
        return try await runJob(Broker1.share, body, onStarted: onStarted)
    }

    // MARK: - Browse

    /// Opens the desktop's browser window on `url` for this app (`Browse`, API.md §10), like
    /// presenting an `SFSafariViewController`, and returns its session at once; its events go to
    /// `delegate`. The app learns nothing else of the browsing; the window's Action sheet offers
    /// the app's own `owner` activities.
    ///
    /// Throws before any window: `invalidArgument` (not http or https, a bad option),
    /// `unavailable` (no graphical session, no browser service), `limitExceeded`.
    public func browse(
        url: URL, configuration: BrowseConfiguration = BrowseConfiguration(),
        delegate: (any BrowsingSessionDelegate)? = nil
    ) async throws(BrokerError) -> BrowsingSession {
        // Subscribed before the call: no event can come before the session listens.
        let session = BrowsingSession(connection: connection, delegate: delegate)
        do throws(BrokerError) {
            let reply = try await call(
                Broker1.browse,
                [.string(configuration.parentWindow), .string(url.absoluteString), .vardict(configuration.vardict)])
            guard let path = reply.first?.objectPath else {
                throw BrokerError.other(
                    name: "org.freedesktop.DBus.Error.InvalidSignature", message: "Browse replied without a session path")
            }
            session.attach(path)
            return session
        } catch {
            session.detach()
            throw error
        }
    }

    /// Asks the broker to resolve the hosts of `urls` ahead of a likely `browse` (`Prewarm`):
    /// best-effort, returns at once. At most `Broker1.prewarmMaximumURLs` http(s) URLs.
    public func prewarm(_ urls: [URL]) async throws(BrokerError) {
        _ = try await call(Broker1.prewarm, [.stringArray(urls.map(\.absoluteString))])
    }

    /// Calls a method that returns a job (`Perform`, `Share`) and waits for its `Finished`.
    ///
    /// Cancelling the task never abandons the call in flight (the broker would start a job that
    /// nobody cancels or waits for): the call runs to its reply, and `JobCancellation` sends the
    /// job's `Cancel` as soon as both the reply and the cancellation are there. A broker that
    /// does not answer within `callTimeout` fails the call (`NoReply`) however it was cancelled;
    /// a job it starts after that is not cancelled by us. Once `Cancel` went out, the wait for
    /// `Finished` is bounded (`JobCancellation`).
    private func runJob(
        _ method: MethodSignature, _ body: [Value], onStarted: (@Sendable (ObjectPath) -> Void)?
    ) async throws(BrokerError) -> ActivityOutcome {
        // Cancelled before anything started: there is no job to cancel.
        if Task.isCancelled { return .cancelled }
        let subscription = jobs.subscribe()
        defer { jobs.unsubscribe(subscription) }
        let cancellation = JobCancellation(connection: connection, jobs: jobs)
        let (connection, address, timeout, jobs) = (self.connection, self.address, callTimeout, self.jobs)
        let result: Result<ActivityOutcome, BrokerError> = await withTaskCancellationHandler {
            let started: Result<ObjectPath, BrokerError> = await withCheckedContinuation { continuation in
                _ = connection.call(Broker1.call(method, body), timeout: timeout, autoStart: true) { reply in
                    // On the loop: a cancel asked for meanwhile leaves in this turn.
                    let path = reply.mapError { BrokerError($0, address: address) }.flatMap { body in
                        guard let path = body.first?.objectPath else {
                            return Result<ObjectPath, BrokerError>.failure(
                                .other(
                                    name: "org.freedesktop.DBus.Error.InvalidSignature",
                                    message: "\(method.name) replied without a job path"))
                        }
                        return .success(path)
                    }
                    if case .success(let path) = path {
                        jobs.expect(path)
                        cancellation.started(path)
                    }
                    continuation.resume(returning: path)
                }
            }
            switch started {
            case .failure(let error):
                return .failure(error)
            case .success(let path):
                onStarted?(path)
                return .success(await jobs.outcome(of: path))
            }
        } onCancel: {
            cancellation.request()
        }
        return try result.get()
    }

    /// Writes out every call this proxy has sent so far (a job's `Cancel` among them, once the
    /// broker has named the job) and waits until the bus has them, at most `timeout`; returns
    /// whether they were written. Waits for this process's socket only, never for the broker.
    /// For a client about to exit right after cancelling. Not on the connection's loop.
    @discardableResult
    public func flush(timeout: Duration = .seconds(1)) -> Bool {
        connection.flush(timeout: timeout)
    }

    // MARK: - Signals

    /// `ActivitiesChanged`, as a stream; the match is removed when the stream ends.
    ///
    /// Only the broker's signals count (the match names it as sender; another peer's broadcast
    /// of the same signal is not one). The signal carries nothing but "ask again", so the stream
    /// keeps at most one unread element (`.bufferingNewest(1)`): a reader that falls behind sees
    /// one change for a burst, never a backlog. The stream finishes when the connection ends
    /// (closed or lost): no change can come any more.
    public func activitiesChanged() -> AsyncStream<Void> {
        let connection = self.connection
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let subscription = connection.addMatch(
                Broker1.activitiesChanged.rule(sender: Broker1.busName.rawValue, path: Broker1.objectPath)
            ) { _ in continuation.yield() }
            let end = connection.onEnd { continuation.finish() }
            continuation.onTermination = { _ in
                connection.cancel(subscription)
                connection.cancel(end)
            }
        }
    }

    // MARK: - Calls

    /// One method call on the broker object, errors mapped to `BrokerError`.
    func call(_ method: MethodSignature, _ body: [Value]) async throws(BrokerError) -> [Value] {
        try await send(Broker1.call(method, body))
    }

    /// Sends `call` (activating the broker if need be), errors mapped to `BrokerError`.
    private func send(_ call: MethodCall) async throws(BrokerError) -> [Value] {
        do {
            return try await connection.call(call, timeout: callTimeout, autoStart: true)
        } catch {
            throw BrokerError(error, address: address)
        }
    }
}
