// The event loop: libdbus watches, timeouts and dispatch status wired to DispatchSources.
import CDBus
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The context libdbus hands back to our C callbacks. Weak, so that libdbus calling back while
/// the connection is being deinitialised finds nothing instead of a dying object.
final class LoopContext {
    weak var connection: Connection?
    init(_ connection: Connection) { self.connection = connection }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> Connection? {
        guard let pointer else { return nil }
        return Unmanaged<LoopContext>.fromOpaque(pointer).takeUnretainedValue().connection
    }
}

/// A retained `LoopContext` for one libdbus registration; the free function releases it.
private func retainedContext(_ connection: Connection) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(LoopContext(connection)).toOpaque()
}

private let releaseContext: DBusFreeFunction = { pointer in
    if let pointer { Unmanaged<LoopContext>.fromOpaque(pointer).release() }
}

/// The sources of one libdbus watch. Loop-confined (`@unchecked Sendable` only so the source
/// handlers, which run on the loop, may capture it): `addSource` and `update` check it (a
/// thread-local read, against libdbus toggling a watch off the loop); `cancel` cannot, as the
/// connection's deinit runs it wherever the last reference went, when nothing else can reach it.
///
/// Each source watches a duplicate of libdbus's socket, which its cancel handler closes.
/// libdispatch on Linux keeps one epoll registration per descriptor *number* and drops a
/// cancelled source's registration later, on its manager thread; libdbus closes its socket
/// at once. A connection opened in between in the same process could get the same number, and
/// its new source would join the stale registration of a socket the kernel has forgotten: it
/// never fires, and that connection hears no reply or signal again (swift-corelibs-libdispatch
/// issue 833; `ConnectionChurnTests`). The duplicate's number stays taken until libdispatch has
/// let go of it, so no new socket can get it meanwhile.
final class WatchEntry: @unchecked Sendable {
    let watch: OpaquePointer
    /// The connection's loop: the sources' queue and the only place the entry is changed.
    let queue: DispatchQueue
    /// libdbus's socket (polled directly by the turn; the sources watch duplicates of it).
    let fd: Int32
    private(set) var sources: [(source: any DispatchSourceProtocol, flag: UInt32, resumed: Bool)] = []
    private(set) var cancelled = false

    /// Whether libdbus wants this watch to report that the socket can be read (read once: the
    /// watch may be freed while an entry is still referenced).
    let reads: Bool

    init(watch: OpaquePointer, queue: DispatchQueue) {
        self.watch = watch
        self.queue = queue
        fd = dbus_watch_get_unix_fd(watch)
        reads = dbus_watch_get_flags(watch) & DBUS_WATCH_READABLE.rawValue != 0
    }

    /// Adds a source for `flag` (inactive until `update`) that calls `handler` on `queue`.
    func addSource(_ flag: UInt32, handler: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        if duplicate < 0 { log("cannot duplicate the bus socket (errno \(errno)); watching it directly") }
        let watched = duplicate >= 0 ? duplicate : fd
        let source: any DispatchSourceProtocol =
            flag == DBUS_WATCH_READABLE.rawValue
            ? DispatchSource.makeReadSource(fileDescriptor: watched, queue: queue)
            : DispatchSource.makeWriteSource(fileDescriptor: watched, queue: queue)
        source.setEventHandler(handler: handler)
        if duplicate >= 0 { source.setCancelHandler { close(duplicate) } }
        sources.append((source, flag, false))
    }

    /// Resumes or suspends every source (tracking state: libdispatch traps on unbalanced calls):
    /// as libdbus says (`dbus_watch_get_enabled`), except that reading stays off while
    /// `readPaused` (the backlog is at its bound).
    func update(readPaused: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        let enabled = dbus_watch_get_enabled(watch) != 0
        for index in sources.indices {
            let wanted = enabled && !(readPaused && sources[index].flag == DBUS_WATCH_READABLE.rawValue)
            guard sources[index].resumed != wanted else { continue }
            if wanted { sources[index].source.resume() } else { sources[index].source.suspend() }
            sources[index].resumed = wanted
        }
    }

    /// Cancels every source; a suspended source must be resumed first or libdispatch traps.
    func cancel() {
        cancelled = true
        for index in sources.indices {
            if !sources[index].resumed { sources[index].source.resume() }
            sources[index].source.cancel()
        }
        sources.removeAll()
    }
}

/// The timer of one libdbus timeout. Loop-confined like `WatchEntry`: `update` checks it.
final class TimeoutEntry: @unchecked Sendable {
    let timeout: OpaquePointer
    let timer: any DispatchSourceTimer
    /// The connection's loop: the timer's queue and the only place the entry is changed.
    let queue: DispatchQueue
    var resumed = false
    var cancelled = false

    init(timeout: OpaquePointer, timer: any DispatchSourceTimer, queue: DispatchQueue) {
        self.timeout = timeout
        self.timer = timer
        self.queue = queue
    }

    /// Re-arms the timer with libdbus's current interval when enabled, suspends it otherwise.
    func update() {
        dispatchPrecondition(condition: .onQueue(queue))
        if dbus_timeout_get_enabled(timeout) != 0 {
            let interval = DispatchTimeInterval.milliseconds(Int(max(dbus_timeout_get_interval(timeout), 0)))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            if !resumed { timer.resume(); resumed = true }
        } else if resumed {
            timer.suspend()
            resumed = false
        }
    }

    func cancel() {
        cancelled = true
        if !resumed { timer.resume(); resumed = true }
        timer.cancel()
    }
}

extension Connection {
    /// Registers our watch, timeout, dispatch-status and filter functions. On the loop.
    func installLoop() {
        assertOnLoop()
        guard let connection = raw else { return }
        let addWatch: DBusAddWatchFunction = { watch, data in
            guard let watch, let connection = LoopContext.from(data) else { return 1 }
            connection.addWatch(watch)
            return 1
        }
        let removeWatch: DBusRemoveWatchFunction = { watch, data in
            guard let watch, let connection = LoopContext.from(data) else { return }
            connection.watches.removeValue(forKey: watch)?.cancel()
        }
        let toggleWatch: DBusWatchToggledFunction = { watch, data in
            guard let watch, let connection = LoopContext.from(data) else { return }
            connection.watchToggled(watch)
        }
        let addTimeout: DBusAddTimeoutFunction = { timeout, data in
            guard let timeout, let connection = LoopContext.from(data) else { return 1 }
            connection.addTimeout(timeout)
            return 1
        }
        let removeTimeout: DBusRemoveTimeoutFunction = { timeout, data in
            guard let timeout, let connection = LoopContext.from(data) else { return }
            connection.timeouts.removeValue(forKey: timeout)?.cancel()
        }
        let toggleTimeout: DBusTimeoutToggledFunction = { timeout, data in
            guard let timeout, let connection = LoopContext.from(data) else { return }
            connection.timeoutToggled(timeout)
        }
        // libdbus may call this with its lock held, and from any thread that changes the
        // connection's state (a message freed elsewhere): only schedule a dispatch, on the loop.
        let dispatchStatus: DBusDispatchStatusFunction = { _, status, data in
            guard status == DBUS_DISPATCH_DATA_REMAINS, let connection = LoopContext.from(data) else { return }
            if connection.isOnLoop {
                connection.scheduleDispatch()
            } else {
                connection.queue.async { [weak connection] in connection?.scheduleDispatch() }
            }
        }
        // Queues the message per sender; the turn (ConnectionLoop+Turn.swift) handles it.
        let filter: DBusHandleMessageFunction = { _, message, data in
            guard let message, let connection = LoopContext.from(data) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            return connection.receive(Message(retaining: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let ok =
            dbus_connection_add_filter(connection, filter, retainedContext(self), releaseContext) != 0
            && dbus_connection_set_watch_functions(
                connection, addWatch, removeWatch, toggleWatch, retainedContext(self), releaseContext) != 0
            && dbus_connection_set_timeout_functions(
                connection, addTimeout, removeTimeout, toggleTimeout, retainedContext(self), releaseContext) != 0
        precondition(ok, "libdbus could not install the loop (out of memory)")
        dbus_connection_set_dispatch_status_function(connection, dispatchStatus, retainedContext(self), releaseContext)
        dbus_connection_set_max_received_size(connection, IncomingLimits.bytes)
        var fd: Int32 = -1
        if dbus_connection_get_socket(connection, &fd) != 0 {
            var size = IncomingLimits.socketSendBuffer
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        // Messages may have arrived during the handshake (NameAcquired).
        scheduleDispatch()
    }

    /// Unregisters our functions and cancels every source. On the loop or from deinit.
    func removeLoop() {
        if let connection = raw {
            dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
            dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
            dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        }
        for entry in watches.values { entry.cancel() }
        watches.removeAll()
        for entry in timeouts.values { entry.cancel() }
        timeouts.removeAll()
    }

    private func addWatch(_ watch: OpaquePointer) {
        assertOnLoop()
        let entry = WatchEntry(watch: watch, queue: queue)
        let flags = dbus_watch_get_flags(watch)
        for flag in [DBUS_WATCH_READABLE.rawValue, DBUS_WATCH_WRITABLE.rawValue] where flags & flag != 0 {
            entry.addSource(flag) { [weak self] in self?.handleWatch(entry, flag: flag) }
        }
        watches[watch] = entry
        entry.update(readPaused: readPaused)
    }

    /// libdbus turned a watch on or off; it may do so off the loop (a received message freed
    /// on another thread re-enables reading), so hop onto the loop first.
    ///
    /// Reading turned back on also means libdbus may hold messages it parsed but would not queue
    /// while its received messages were over `IncomingLimits.bytes`; it reports no change of
    /// dispatch status for them, and with the socket drained no watch fires: run a turn.
    private func watchToggled(_ watch: OpaquePointer) {
        guard isOnLoop else {
            let box = UncheckedBox(watch)
            queue.async { [weak self] in self?.watchToggled(box.value) }
            return
        }
        guard let entry = watches[watch] else { return }
        entry.update(readPaused: readPaused)
        if entry.reads, dbus_watch_get_enabled(watch) != 0 { scheduleDispatch() }
    }

    private func handleWatch(_ entry: WatchEntry, flag: UInt32) {
        guard !entry.cancelled, let connection = raw else { return }
        // dbus_watch_handle may free the watch (and call removeWatch) before it returns: keep the
        // entry and the connection alive across the call.
        dbus_connection_ref(connection)
        withExtendedLifetime(entry) { _ = dbus_watch_handle(entry.watch, flag) }
        dbus_connection_unref(connection)
        scheduleDispatch()
    }

    /// libdbus turned a timeout on or off or changed its interval: hop onto the loop first, as
    /// `watchToggled` does, since the entry and its timer are changed only there. (libdbus adds
    /// connection timeouts only for its own pending calls, which this module does not use —
    /// `PendingCall` keeps its own timers — and its source calls the toggle nowhere; the hop
    /// keeps this right should either change.)
    func timeoutToggled(_ timeout: OpaquePointer) {
        guard isOnLoop else {
            let box = UncheckedBox(timeout)
            queue.async { [weak self] in self?.timeoutToggled(box.value) }
            return
        }
        timeouts[timeout]?.update()
    }

    private func addTimeout(_ timeout: OpaquePointer) {
        assertOnLoop()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let entry = TimeoutEntry(timeout: timeout, timer: timer, queue: queue)
        timer.setEventHandler { [weak self] in
            guard let self, !entry.cancelled, self.raw != nil else { return }
            withExtendedLifetime(entry) { _ = dbus_timeout_handle(entry.timeout) }
            self.scheduleDispatch()
        }
        timeouts[timeout] = entry
        entry.update()
    }

    /// Schedules one dispatch run on the loop (coalesced).
    func scheduleDispatch() {
        guard !dispatchScheduled else { return }
        dispatchScheduled = true
        queue.async { [weak self] in self?.dispatchNow() }
    }

    /// Runs one turn (reads, queues per sender, handles a bounded number fairly); schedules
    /// the next while work remains, so timers and other loop work interleave.
    private func dispatchNow() {
        dispatchScheduled = false
        guard let connection = raw, !dispatching else { return }
        dispatching = true
        runTurn(connection)
        dispatching = false
        if closing {
            teardown()
        } else if hasWork(connection) {
            scheduleDispatch()
        }
    }
}
