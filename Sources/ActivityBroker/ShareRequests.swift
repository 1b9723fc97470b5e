// Broker1.Share: the offered list for the caller, shown by the sheet service, the choice performed as a job.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// `Share` (API.md §10): the broker decides what is offered and performs; the sheet service
/// only shows the list and reports the choice. The broker draws nothing.
///
/// Loop-confined (the connection's loop). A `Share` job lives in `JobTable` like any other:
/// `choosing` while the sheet is open (its `running` is the open sheet, so `Cancel`, the
/// timeout and shutdown close it), then `running` with the chosen activity, dispatched as
/// `Perform` would. It survives the sheet: a sheet that fails to start, crashes or answers
/// nonsense fails the job with the D-Bus error name and a reason; one that never answers is
/// closed when the job's timeout ends it. A caller that leaves while the sheet is open
/// closes the sheet and cancels the job.
///
/// The browser window's Action button is a `Share` from the browser service with option
/// `session` (its window's handle): the list is then the session owner's (its `owner`
/// activities in, the session's `exclude` applied) and the choice is performed on the owner's
/// behalf, but the job is the browser service's: the app hears nothing of it.
final class ShareRequests: @unchecked Sendable {
    private let connection: Connection
    private let offers: Offers
    private let activities: ActivityState
    private let jobs: JobTable
    private let sheet: SheetClient
    private let sessions: BrowsingSessions
    private let machine: any Environment
    private let graphical: Bool
    private let log: BrokerLog

    /// `environment` is the broker's own: a graphical session is one with `WAYLAND_DISPLAY`
    /// or `DISPLAY` set, as the sheet will inherit them when the bus starts it.
    init(
        connection: Connection, offers: Offers, activities: ActivityState, jobs: JobTable, sheet: SheetClient,
        sessions: BrowsingSessions, machine: any Environment, environment: [String: String], log: BrokerLog
    ) {
        self.connection = connection
        self.offers = offers
        self.activities = activities
        self.jobs = jobs
        self.sheet = sheet
        self.sessions = sessions
        self.machine = machine
        self.graphical = GraphicalSession.isPresent(in: environment)
        self.log = log
    }

    /// `Share`: every check happens before the job exists; then the job (`choosing`) is
    /// returned and the sheet is shown after the reply has gone out.
    func share(parentWindow: String, items rawItems: [String: Value], options rawOptions: [String: Value], caller: String)
        throws(ActivityError) -> ObjectPath
    {
        connection.assertOnLoop()
        let method = Broker1.share.name.rawValue
        let options = try OptionSchema.share.validate(rawOptions)
        // Whose activities are offered and performed: the caller's, or for the browser's
        // Action button, the session owner's.
        var onBehalfOf = caller
        var exclude = options[OptionKey.exclude]?.stringArray ?? []
        if let handle = options[OptionKey.session]?.objectPath {
            guard let browserOwner = sessions.browserOwner, caller == browserOwner else {
                throw .accessDenied(
                    "\(method): option 'session' is reserved for the browser service (\(Broker1.browserBusName.rawValue))")
            }
            guard let session = sessions.session(handle: handle, browser: caller) else {
                throw .notFound("\(method): no browsing session \(handle.rawValue)")
            }
            onBehalfOf = session.owner
            exclude += session.exclude
        }
        let items = try ItemsDecoder.decode(rawItems)
        let timeout = try JobTable.timeout(options, method: method)
        try Self.checkParentWindow(parentWindow)
        let locale = options[OptionKey.locale]?.string
        let offered = try offers.offeredForShare(
            items: items, locale: locale, exclude: exclude, caller: onBehalfOf)
        guard !offered.isEmpty else {
            throw .notApplicable("\(method): no activity applies to these items for this caller")
        }
        guard graphical else {
            throw .unavailable("\(method): no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set for the broker)")
        }
        guard machine.hasBusName(Sheet1.busName.rawValue) else {
            throw .unavailable("\(method): no share sheet is installed (\(Sheet1.busName.rawValue) is neither running nor activatable)")
        }
        try jobs.admit(caller: caller)

        let job = jobs.create(caller: caller, activityID: nil, state: .choosing, timeout: timeout)
        let behalf = onBehalfOf == caller ? "" : " for \(onBehalfOf)"
        log.event("job \(job.number): share sheet requested (by \(caller)\(behalf), \(offered.count) activities)")
        var showOptions: [String: Value] = [:]
        if let locale { showOptions[OptionKey.locale] = .string(locale) }
        if let token = options[OptionKey.activationToken]?.string {
            showOptions[OptionKey.activationToken] = .string(token)
        }
        let request = Request(
            job: job, onBehalfOf: onBehalfOf, handle: SheetClient.newHandle(), items: items, offered: offered.map(\.id))
        // The caller leaving while the sheet is open closes it; once running, the job runs on
        // like a `Perform` whose caller left.
        job.subscriptions.append(
            connection.watchDisconnect(of: caller) { [unowned self] in
                guard job.state == .choosing else { return }
                log.event("job \(job.number): its caller left; closing the share sheet")
                jobs.cancel(job)
            })
        // Who is asking (the app, also for its browser window), for the sheet's header (display only), then the sheet; after the reply.
        CallerApplication.lookUp(onBehalfOf, on: connection) { [unowned self] appID in
            show(
                request, appID: appID, parentWindow: parentWindow, activities: offered.map(\.record),
                options: showOptions, timeout: timeout)
        }
        return job.path
    }

    /// What the sheet's answer needs of one `Share`, kept until it comes; what only `Show`
    /// needs (the records, its options) goes with that call and is not kept.
    private struct Request {
        let job: Job
        /// Whose activities are offered and performed (the caller, or a browsing session's owner).
        let onBehalfOf: String
        let handle: ObjectPath
        let items: Items
        /// The ids the sheet may choose from.
        let offered: [ActivityID]
    }

    /// `Show` on the sheet service, once the calling app is known.
    private func show(
        _ request: Request, appID: String, parentWindow: String, activities: [Value], options: [String: Value],
        timeout: UInt32
    ) {
        let job = request.job
        guard job.state == .choosing else { return }
        let pending = sheet.show(
            handle: request.handle, appID: appID, parentWindow: parentWindow,
            items: ItemKey.record(url: request.items.url.string, title: request.items.title, text: request.items.text),
            activities: activities, options: options,
            // The job's timer ends a sheet that never answers; this is only a backstop.
            timeout: .seconds(Int(timeout) + 5)
        ) { [unowned self] result in
            answered(request, result)
        }
        job.running = OpenSheet(pending: pending, sheet: sheet, handle: request.handle)
    }

    private func answered(_ request: Request, _ result: Result<SheetResponse, DBusError>) {
        let job = request.job
        // Already ended: cancelled, timed out, the caller left (the sheet was closed then).
        guard job.state == .choosing else { return }
        switch result {
        case .failure(let error):
            jobs.finish(
                job,
                .failed(DBusError(name: error.name, message: "the share sheet failed before a choice: \(error.message)")))
        case .success(.cancelled):
            jobs.finish(job, .cancelled)
        case .success(.failed(let message)):
            jobs.finish(job, .failed(.providerFailed("the share sheet could not be shown: \(message)")))
        case .success(.chosen(let id, let token)):
            perform(id, token: token, for: request)
        }
    }

    /// Performs the user's choice on the caller's behalf, with the sheet's activation token,
    /// as `Perform` would; the sheet hears `running`, then the end.
    private func perform(_ id: String, token: String?, for request: Request) {
        let job = request.job
        let handle = request.handle
        let sheet = sheet
        do throws(ActivityError) {
            guard let chosen = request.offered.first(where: { $0.rawValue == id }) else {
                throw .providerFailed("the share sheet chose '\(id.prefix(255))', which was not offered")
            }
            // The sheet's token goes where a caller's would: held to the callers' limit.
            if let token, token.utf8.count > OptionSchema.maximumActivationTokenBytes {
                throw .providerFailed(
                    "the share sheet answered an activation_token of \(token.utf8.count) bytes (at most \(OptionSchema.maximumActivationTokenBytes))"
                )
            }
            // Looked up again: it may have gone or changed while the sheet was open.
            let activity = try activities.lookUp(chosen.rawValue, caller: request.onBehalfOf)
            let plan = try jobs.prepare(activity, items: request.items, activationToken: token)
            job.whenFinished = { outcome in
                sheet.update(handle: handle, state: outcome.state, message: outcome.message)
            }
            sheet.update(handle: handle, state: .running, message: "")
            jobs.run(job, chosen: activity, plan: plan)
        } catch {
            sheet.update(handle: handle, state: .failed, message: error.message)
            jobs.finish(job, .failed(error))
        }
    }

    /// `parent_window` as the portals spell it: "", `x11:<hex XID>` or `wayland:<handle>`.
    ///
    /// Checked as bytes, as docs/dbus-api.md's Limits table states it: `x11:` then 1–16 of
    /// `0-9a-fA-F`; `wayland:` then 1–256 printable ASCII bytes (0x21–0x7E). `Character`'s
    /// classes are wider than that (`isHexDigit` takes fullwidth digits such as `Ｆ`, and no
    /// class of it refuses every control character), and the value goes on to a UI service.
    static func checkParentWindow(_ parent: String, method: String = "Share") throws(ActivityError) {
        if parent.isEmpty { return }
        let bytes = parent.utf8
        let valid: Bool
        if bytes.starts(with: "x11:".utf8) {
            let xid = bytes.dropFirst(4)
            valid = (1...16).contains(xid.count) && xid.allSatisfy(Self.isHexDigit)
        } else if bytes.starts(with: "wayland:".utf8) {
            let handle = bytes.dropFirst(8)
            valid = (1...256).contains(handle.count) && handle.allSatisfy { (0x21...0x7E).contains($0) }
        } else {
            valid = false
        }
        guard valid else {
            throw .invalidArgument(
                "\(method): parent_window must be \"\", x11:<hex XID> or wayland:<handle>, got '\(parent.prefix(64))'")
        }
    }

    /// An ASCII hexadecimal digit: `0-9`, `a-f`, `A-F`.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

/// A sheet waiting for the user: cancelling stops waiting for `Show` and closes the sheet.
private final class OpenSheet: RunningDispatch {
    let pending: PendingCall
    let sheet: SheetClient
    let handle: ObjectPath

    init(pending: PendingCall, sheet: SheetClient, handle: ObjectPath) {
        self.pending = pending
        self.sheet = sheet
        self.handle = handle
    }

    func cancel() {
        pending.cancel()
        sheet.close(handle: handle)
    }
}
