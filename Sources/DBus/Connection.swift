// The connection to a bus: its loop, its state, connecting and closing, names and bus helpers.
import CDBus
import Dispatch
import Locking

/// Which bus to connect to.
public enum BusAddress: Sendable, Hashable {
    case session, system
    /// A D-Bus address such as `unix:path=/tmp/bus`.
    case address(String)
}

/// A private connection to a message bus, owned by one serial `DispatchQueue` (its loop).
///
/// `@unchecked Sendable` invariant: every libdbus call on the connection and every piece of
/// mutable state below happens on `queue` (checked with `dispatchPrecondition`). Public methods
/// may be called from any thread: on the loop they run inline, elsewhere they hop onto it. Every
/// callback (handlers, completions, watches) runs on the loop.
///
/// Keep a strong reference while using it; `close()` (or releasing it) closes the bus connection.
public final class Connection: @unchecked Sendable {
    /// The loop. Owners may confine their own state to it (timers, caches).
    public let queue: DispatchQueue
    /// Our unique name on the bus, e.g. `:1.42`.
    public let uniqueName: String

    static let loopKey = DispatchSpecificKey<ObjectIdentifier>()
    /// libdbus must be told it is used from several threads before anything else.
    static let threadsReady: Bool = dbus_threads_init_default() != 0

    // Loop-confined state (see the type's invariant).
    var raw: OpaquePointer?
    var closing = false
    var dispatching = false
    var dispatchScheduled = false
    var watches: [OpaquePointer: WatchEntry] = [:]
    /// Messages read and not yet handled, per sender (see `ConnectionLoop+Turn.swift`).
    var incoming = SenderQueues<Message>(
        budget: IncomingLimits.perPeerBudget, promptRun: IncomingLimits.promptRun)
    /// Reading is paused because `incoming` reached its bound (back-pressure).
    var readPaused = false
    /// The bound on `incoming` (`IncomingLimits.messages`; tests lower it).
    var incomingBound = IncomingLimits.messages
    /// For tests of back-pressure: keep reading and queueing, but handle nothing.
    var holdsIncoming = false
    var backlogHandlers: [(Backlog) -> Void] = []
    var timeouts: [OpaquePointer: TimeoutEntry] = [:]
    var pendingCalls: [UInt32: PendingCall] = [:]
    var objects: [ObjectPath: [Interface]] = [:]
    /// Exported objects left out of their ancestors' introspection (`export(listed: false)`).
    var unlistedObjects: Set<ObjectPath> = []
    /// Parents whose children are answered on demand (`exportChildren(of:resolve:)`).
    var childResolvers: [ObjectPath: (ObjectPath) -> [Interface]?] = [:]
    var subscriptions: [Int: SubscriptionEntry] = [:]
    var ruleCounts: [String: Int] = [:]
    var senderTracking: [String: (subscription: Subscription, count: Int)] = [:]
    var knownOwners: [String: String?] = [:]
    var nameLostHandlers: [(BusName) -> Void] = []
    var disconnectHandlers: [() -> Void] = []
    /// `onEnd`'s handlers by `EndWatch` id (ids grow: sorted, they run in the order added),
    /// run once by `teardown`.
    var endHandlers: [Int: () -> Void] = [:]

    // Guarded by `idLock`: readable from any thread.
    let idLock = Lock()
    var lastID = 0
    private var closedFlag = false

    /// Connects (a private connection: `dbus_connection_open_private` + `dbus_bus_register`, or
    /// `dbus_bus_get_private` for session/system) and starts the loop.
    ///
    /// Blocks the calling thread during the handshake. Throws a `DBusError` (libdbus's name,
    /// e.g. `org.freedesktop.DBus.Error.NoServer`) whose message names the address.
    public init(bus: BusAddress) throws(DBusError) {
        precondition(Connection.threadsReady, "dbus_threads_init_default failed")
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        func failure(_ what: String) -> DBusError {
            let name = error.name.map { String(cString: $0) } ?? DBusError.failedName
            let message = error.message.map { String(cString: $0) } ?? "unknown error"
            return DBusError(name: name, message: "\(what): \(message)")
        }
        let connection: OpaquePointer
        switch bus {
        case .session, .system:
            let type = bus == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM
            guard let opened = dbus_bus_get_private(type, &error) else {
                throw failure("cannot connect to the \(bus == .session ? "session" : "system") bus")
            }
            connection = opened
        case .address(let address):
            if address.utf8.contains(0) { throw .invalidArgs("bus address contains a NUL byte") }
            guard let opened = dbus_connection_open_private(address, &error) else {
                throw failure("cannot connect to \(address)")
            }
            if dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                throw failure("cannot register with the bus at \(address)")
            }
            connection = opened
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        uniqueName = String(cString: dbus_bus_get_unique_name(connection))
        raw = connection
        queue = DispatchQueue(label: "dbus.connection \(uniqueName)")
        queue.setSpecific(key: Connection.loopKey, value: ObjectIdentifier(self))
        queue.sync { installLoop() }
    }

    deinit {
        // Nothing else can reach us now; run the teardown here (never inside a dispatch, as a
        // dispatch holds a strong reference).
        if raw != nil { teardown() }
    }

    /// Whether the current thread is running this connection's loop.
    var isOnLoop: Bool { DispatchQueue.getSpecific(key: Connection.loopKey) == ObjectIdentifier(self) }

    /// Traps unless called on the loop.
    public func assertOnLoop() { dispatchPrecondition(condition: .onQueue(queue)) }

    /// Runs `body` on the loop and returns its result: inline when already there, `queue.sync`
    /// otherwise.
    func sync<T>(_ body: () throws(DBusError) -> T) throws(DBusError) -> T {
        if isOnLoop { return try body() }
        let result: Result<T, DBusError> = queue.sync { Result { () throws(DBusError) in try body() } }
        return try result.get()
    }

    /// Non-throwing variant of `sync`.
    func syncValue<T>(_ body: () -> T) -> T {
        isOnLoop ? body() : queue.sync(execute: body)
    }

    /// Runs `body` on the loop: inline when already there, asynchronously otherwise (so calls
    /// between two loops never wait on each other).
    func perform(_ body: @escaping @Sendable () -> Void) {
        if isOnLoop { body() } else { queue.async(execute: body) }
    }

    /// A process-unique id for subscriptions and calls.
    func nextID() -> Int {
        idLock.lock()
        defer { idLock.unlock() }
        lastID += 1
        return lastID
    }

    /// Whether the connection is closed or lost; readable from any thread.
    var isKnownClosed: Bool {
        idLock.lock()
        defer { idLock.unlock() }
        return closedFlag
    }

    private func markClosed() {
        idLock.lock()
        closedFlag = true
        idLock.unlock()
    }

    /// Whether the connection is still usable (on the loop).
    var isOpen: Bool { raw != nil && !closing }

    /// Writes out every message handed to this connection before the call (sends from other
    /// threads hop onto the loop first, so this runs after them) and waits until the bus has
    /// them, or `timeout` has passed; returns whether they were written. For a process about to
    /// exit: what it sent last is then not lost with it, and a bus that stopped reading cannot
    /// hold it. Not on the loop (it waits for the loop).
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        precondition(!isOnLoop, "flush(timeout:) waits for the loop and cannot run on it")
        let written = DispatchSemaphore(value: 0)
        perform { [self] in
            // Blocks the loop until written; the waiter below gives up on it at its deadline.
            if isOpen, let connection = raw { dbus_connection_flush(connection) }
            written.signal()
        }
        return written.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }

    // MARK: Closing

    /// Flushes, closes and stops the loop. Idempotent. Pending calls complete with
    /// `Disconnected`; disconnect handlers are not called for an explicit close.
    public func close() {
        syncValue {
            guard raw != nil, !closing else { return }
            closing = true
            markClosed()
            // Inside a dispatch libdbus still uses the connection: finish after it returns.
            if !dispatching { teardown() }
        }
    }

    /// Calls `handler` on the loop when the connection to the bus is lost (not after `close()`).
    public func onDisconnect(_ handler: @escaping () -> Void) {
        let box = UncheckedBox(handler)
        perform { self.disconnectHandlers.append(box.value) }
    }

    /// Calls `handler` on the loop once the connection has ended, however: `close()`, the bus
    /// lost, or the last reference gone (then on the releasing thread). At once if it already
    /// has. For state that waits on the connection and must not wait forever (a job's
    /// `Finished`); `onDisconnect` is the bus lost alone. `cancel(_:)` with the returned watch
    /// forgets the handler, so that waiters that come and go on a long-lived connection (one
    /// per job, per stream) do not pile up until it ends.
    @discardableResult
    public func onEnd(_ handler: @escaping () -> Void) -> EndWatch {
        let watch = EndWatch(id: nextID())
        let box = UncheckedBox(handler)
        perform {
            if self.raw == nil { box.value() } else { self.endHandlers[watch.id] = box.value }
        }
        return watch
    }

    /// Forgets a handler `onEnd` added; nothing once it ran. From any thread: after an `onEnd`
    /// from the same thread, or on the loop, it is always the later of the two.
    public func cancel(_ watch: EndWatch) {
        perform { self.endHandlers.removeValue(forKey: watch.id) }
    }

    /// Called on the loop when libdbus reports the bus gone (the Local.Disconnected message).
    func handleDisconnected() {
        guard raw != nil else { return }
        let handlers = closing ? [] : disconnectHandlers
        closing = true
        markClosed()
        failPendingCalls()
        for handler in handlers { handler() }
        if !dispatching { teardown() }
    }

    private func failPendingCalls() {
        let calls = pendingCalls.values.sorted { $0.serial < $1.serial }
        pendingCalls.removeAll()
        for call in calls { call.complete(.failure(.disconnected())) }
    }

    /// Releases libdbus and every DispatchSource. On the loop, or from deinit.
    func teardown() {
        guard let connection = raw else { return }
        closing = true
        markClosed()
        if dbus_connection_get_is_connected(connection) != 0 {
            dbus_connection_flush(connection)
        }
        dbus_connection_close(connection)
        removeLoop()
        // Unanswerable now; released while libdbus can still account for them.
        _ = incoming.removeAll()
        dbus_connection_unref(connection)
        raw = nil
        failPendingCalls()
        subscriptions.removeAll()
        objects.removeAll()
        unlistedObjects.removeAll()
        childResolvers.removeAll()
        disconnectHandlers.removeAll()
        nameLostHandlers.removeAll()
        let ended = endHandlers.sorted { $0.key < $1.key }
        endHandlers.removeAll()
        for (_, handler) in ended { handler() }
        backlogHandlers.removeAll()
    }

    // MARK: Names

    /// Flags of `requestName` (`DBUS_NAME_FLAG_*`).
    public struct NameRequestFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let allowReplacement = NameRequestFlags(rawValue: 0x1)
        public static let replaceExisting = NameRequestFlags(rawValue: 0x2)
        public static let doNotQueue = NameRequestFlags(rawValue: 0x4)
    }

    /// The bus's answer to `requestName`.
    public enum NameRequestReply: Sendable {
        case primaryOwner, inQueue, exists, alreadyOwner
    }

    /// Asks the bus for a well-known name (RequestName). Throws the bus's error.
    public func requestName(_ name: BusName, flags: NameRequestFlags = []) async throws(DBusError) -> NameRequestReply {
        let reply = try await call(.bus("RequestName", [.string(name.rawValue), .uint32(flags.rawValue)]))
        switch reply.first?.uint32 {
        case 1: return .primaryOwner
        case 2: return .inQueue
        case 3: return .exists
        case 4: return .alreadyOwner
        default: throw .failed("unexpected RequestName reply \(reply)")
        }
    }

    /// Gives a well-known name back (ReleaseName).
    public func releaseName(_ name: BusName) async throws(DBusError) {
        _ = try await call(.bus("ReleaseName", [.string(name.rawValue)]))
    }

    /// Calls `handler` on the loop when the bus takes a name away from us (NameLost).
    public func onNameLost(_ handler: @escaping (BusName) -> Void) {
        let box = UncheckedBox(handler)
        perform { self.nameLostHandlers.append(box.value) }
    }

    // MARK: Bus helpers

    private func busUInt32(_ member: MemberName, _ name: String) async throws(DBusError) -> UInt32 {
        let reply = try await call(.bus(member, [.string(name.replacingNULs())]))
        guard let value = reply.first?.uint32 else { throw .failed("unexpected \(member) reply") }
        return value
    }

    /// The process id of a connection (GetConnectionUnixProcessID).
    public func unixProcessID(of name: String) async throws(DBusError) -> UInt32 {
        try await busUInt32("GetConnectionUnixProcessID", name)
    }

    /// The uid of a connection (GetConnectionUnixUser).
    public func unixUser(of name: String) async throws(DBusError) -> UInt32 {
        try await busUInt32("GetConnectionUnixUser", name)
    }

    /// Whether `name` has an owner (NameHasOwner); false on any error. `completion` runs on the loop.
    public func nameHasOwner(_ name: BusName, completion: @escaping (Bool) -> Void) {
        _ = call(.bus("NameHasOwner", [.string(name.rawValue)])) { result in
            completion((try? result.get())?.first?.bool ?? false)
        }
    }

    /// The names the bus can start (ListActivatableNames). `completion` runs on the loop.
    public func listActivatableNames(completion: @escaping (Result<[String], DBusError>) -> Void) {
        _ = call(.bus("ListActivatableNames")) { result in
            completion(result.map { $0.first?.stringArray ?? [] })
        }
    }
}

/// Carries a value that is only ever used on one loop across an `@Sendable` boundary.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
