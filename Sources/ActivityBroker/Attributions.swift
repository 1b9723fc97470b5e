// Attributions: Private Click Measurement in the broker — keeps clicks, applies triggers, sends reports when due.
import ActivityKit
import Dispatch
import Glibc

/// The broker's side of API.md §11 around the pure `AttributionStore`.
///
/// Loop-confined (`queue`, the connection's loop): every method is called there, and the
/// timer and the sender's completions come back there; `@unchecked Sendable` rests on that.
/// Each change is written to `AttributionStoreFile` at once, so a broker killed between a
/// trigger and its report still sends it after a restart: at its `restartSendTime`, inside
/// 24–48 h of the trigger, or late when that has passed. Each endpoint of a report is tracked
/// on its own: a retry posts only to the one that did not answer.
///
/// At most once, as Private Click Measurement prefers: a report leaves the file (it is written
/// as sent) before its POST starts, and only one is on its way at a time, so a broker killed
/// during a POST has lost at most that one report rather than sending it again after a restart.
/// The answer puts it back when it is to be retried (a network or TLS failure).
/// When `AttributionSettings.isEnabled` is false nothing is kept and nothing is sent.
/// Logs name session numbers and outcomes only: never a site, URL or time finer than a day.
final class Attributions: @unchecked Sendable {
    /// The longest the scheduler sleeps before looking again (the wall clock may jump).
    static let maximumSleep = 3600

    private let settings: AttributionSettings
    private let file: AttributionStoreFile
    private let queue: DispatchQueue
    private let log: BrokerLog
    private let clock: @Sendable () -> Timestamp
    private let sender: any AttributionReportSending
    private(set) var store = AttributionStore()
    /// The report handed to the sender and not yet answered: one at a time (see above). The
    /// store keeps it, so that its answer is counted there; the file does not (`save`).
    private var onItsWay: AttributionReport?
    private var timer: DispatchSourceTimer?
    /// Whether the file is known to hold no click or report (missing, read empty, or last
    /// written empty): `clear()` on an empty store then has nothing to write.
    private var fileHoldsNothing = false

    init(
        settings: AttributionSettings, queue: DispatchQueue, log: BrokerLog,
        clock: @escaping @Sendable () -> Timestamp,
        sender: any AttributionReportSending
    ) {
        self.settings = settings
        self.file = AttributionStoreFile(path: settings.storeFile, log: log)
        self.queue = queue
        self.log = log
        self.clock = clock
        self.sender = sender
    }

    deinit { timer?.cancel() }

    private var now: Int { Int(clock().secondsSince1970.rounded(.down)) }

    /// Reads the store and sends what is overdue. On the loop.
    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        let read = file.load()
        store = read ?? AttributionStore()
        fileHoldsNothing = read?.isEmpty == true
        store.resumeAfterRestart()
        // Clicks past their 7 days go now, not at the next click or trigger (which may never come).
        let before = store
        store.removeExpired(now: now)
        if store != before { save() }
        schedule()
    }

    /// A click whose gesture was proven (`BrowsingSessions`): kept for 7 days.
    func recordClick(_ attribution: EventAttribution, session: UInt64) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard settings.isEnabled else {
            log.debug("session \(session): click measurement is off; the click was not kept")
            return
        }
        store.record(AttributionClick(attribution, at: now), now: now)
        save()
        log.debug("session \(session): click kept for measurement")
    }

    /// A load redirected to `url` while the session showed a page on `pageURL`'s site;
    /// `session` names the session in log lines ("session 3", "a terminal session").
    /// Anything that is not an exact trigger URL is ignored silently (every redirect comes here).
    func recordTrigger(url: String, pageURL: String, session: String) {
        guard let trigger = AttributionTrigger(url), let page = try? SharedURL(pageURL) else { return }
        recordTrigger(trigger, page: page, session: session)
    }

    /// A trigger already parsed (the terminal's, checked before its caller was looked at), seen
    /// in a load that began at `page`. A page without a site (an IP address) is ignored.
    func recordTrigger(_ trigger: AttributionTrigger, page: SharedURL, session: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let destination = RegistrableDomain.of(page) else { return }
        guard settings.isEnabled else {
            log.debug("\(session): click measurement is off; a trigger was ignored")
            return
        }
        // A report on its way carries the data it had when it left: both sites get the same.
        let sameSites = onItsWay.map {
            $0.sourceSite == trigger.sourceSite && $0.destinationSite == destination
        }
        guard sameSites != true else {
            log.debug("\(session): a trigger came while its report was being sent; it was ignored")
            return
        }
        let before = store
        var random = SystemRandomness()
        let outcome = store.record(trigger, destinationSite: destination, now: now, using: &random)
        switch outcome {
        case .noClick:
            log.debug("\(session): a trigger matched no click")
        case .scheduled:
            log.debug("\(session): a trigger matched a click; its report is scheduled")
        case .raisedPriority:
            log.debug("\(session): a trigger raised a pending report's priority")
        case .keptPriority:
            log.debug("\(session): a trigger of lower priority was ignored")
        }
        // Most redirects of a session are no trigger at all; a trigger that changed nothing
        // (no click, a lower priority) costs no write either.
        if store != before { save() }
        schedule()
    }

    /// `share attributions --clear`: forgets every click and report. Any connection may call
    /// it, as often as it likes: with nothing to forget it writes and logs nothing (a write with
    /// fsync on the loop per call let a loop of calls stall every client). With something to
    /// forget it writes at once, as every change here does: the CLI reads the file right after,
    /// and a store can only fill again through clicks a user made.
    func clear() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard forgetAll() else { return }
        schedule()
        log.frequentEvent("click measurement data cleared")
    }

    /// Empties the store and its file unless both hold nothing; returns whether there was anything.
    @discardableResult
    private func forgetAll() -> Bool {
        guard !(store.isEmpty && fileHoldsNothing) else { return false }
        store.clear()
        save()
        return true
    }

    /// Writes the store less the report on its way (written as sent before its POST), and
    /// notes whether the file now holds nothing. Returns whether it was written.
    @discardableResult
    private func save() -> Bool {
        // That very report: a trigger cannot change it on its way; one made anew for its pair
        // after a clear meanwhile is another, and is kept.
        let kept = AttributionStore(clicks: store.clicks, reports: store.reports.filter { $0 != onItsWay })
        let written = file.save(kept)
        fileHoldsNothing = written && kept.isEmpty
        return written
    }

    // MARK: Scheduler

    /// Sends the first due report unless one is on its way (its answer schedules again), then
    /// sleeps until the next one is due.
    private func schedule() {
        timer?.cancel()
        timer = nil
        // Off means nothing kept, not only nothing new: what was stored before is forgotten
        // (at start and at each wake), never sent once the switch is turned back on.
        guard settings.isEnabled else {
            if forgetAll() { log.frequentEvent("click measurement is off: stored clicks and reports forgotten") }
            return
        }
        let now = self.now
        // A report that could not be written as sent is put off (`send`): the next one may go.
        while onItsWay == nil, let report = store.dueReports(now: now).first {
            send(report, now: now)
        }
        guard onItsWay == nil, let next = store.nextSendTime else { return }
        let sleep = min(max(next - now, 1), Self.maximumSleep)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Wall time: a suspended machine wakes to overdue reports, which go out at once.
        timer.schedule(wallDeadline: .now() + .seconds(sleep))
        timer.setEventHandler { [unowned self] in schedule() }
        timer.resume()
        self.timer = timer
    }

    /// Writes `report` as sent, then hands it to the sender. When the file cannot be written
    /// it is not sent (a crash could then send it twice): it counts as a failed attempt.
    private func send(_ report: AttributionReport, now: Int) {
        onItsWay = report
        guard save() else {
            onItsWay = nil
            let outcome = store.answered(report.pair, by: [], now: now)
            log.event(
                "a click measurement report was not sent: it could not be written as sent first; "
                    + (outcome == .dropped ? "it was dropped" : "it will be tried once more"))
            save()
            return
        }
        log.debug("sending a click measurement report")
        sender.send(report) { [weak self] answered in
            guard let self else { return }
            queue.async { self.finished(report, answered: answered) }
        }
    }

    /// The result of sending `sent`. It counts only for that same report: cleared while on its
    /// way and followed by a new click and trigger for the same sites, the store holds another
    /// report for the pair, which the old answer must not mark as delivered.
    private func finished(_ sent: AttributionReport, answered: Set<AttributionReport.Endpoint>) {
        let pair = sent.pair
        onItsWay = nil
        guard
            let current = store.reports.first(where: { $0.pair == pair }), current.sourceID == sent.sourceID,
            current.triggerDay == sent.triggerDay, current.triggerData == sent.triggerData
        else {
            // Cleared meanwhile; what replaced it may not have been written while it was on its way.
            save()
            schedule()
            return
        }
        switch store.answered(pair, by: answered, now: now) {
        case .gone:
            break  // Cleared while on its way: nothing left to account for.
        case .delivered:
            log.debug("a click measurement report was sent")
        case .retrying:
            log.debug(
                "a click measurement report did not reach every endpoint; it will be tried once more there")
        case .dropped:
            log.event("a click measurement report could not be sent twice; it was dropped")
        }
        save()
        schedule()
    }
}

/// The system's random numbers, from a generator that has storage.
///
/// ThreadSanitizer checks every `inout` access at the value's address, and a value of no size
/// (`SystemRandomNumberGenerator` is an empty struct) need not have a real one: the broker died
/// in TSan's runtime at `AttributionStore.record`'s `using: &random` under `make sanitize`. The
/// numbers come from the standard library's own system generator.
private struct SystemRandomness: RandomNumberGenerator {
    private var draws: UInt64 = 0

    mutating func next() -> UInt64 {
        draws &+= 1
        return UInt64.random(in: .min ... .max)
    }
}
