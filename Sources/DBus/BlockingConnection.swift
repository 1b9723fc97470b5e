// A bus connection driven synchronously by the one thread that uses it: no loop, no queue, no task hop.
import CDBus

/// A private connection whose calls block the calling thread in libdbus's own `poll` until
/// the reply arrives (`dbus_connection_send_with_reply_and_block`, `read_write`).
///
/// For a measuring client or a simple tool: one call outstanding, nothing between the caller
/// and the socket, so a timed call is one round trip through the bus and the peer. Not for a
/// service (nothing is dispatched: use `Connection`). Bodies are built and read with the
/// module's own `Message` and `Value` coding.
///
/// `@unchecked Sendable` invariant: one thread at a time uses it (the thread that owns it,
/// or one it was handed to); libdbus's own locks guard the rest.
public final class BlockingConnection: @unchecked Sendable {
    private let raw: OpaquePointer
    /// Our unique name on the bus.
    public let uniqueName: String

    /// Connects to the bus at `address` and registers (Hello). Blocks during the handshake;
    /// throws libdbus's error naming the address.
    public init(address: String) throws(DBusError) {
        precondition(Connection.threadsReady, "dbus_threads_init_default failed")
        if address.utf8.contains(0) { throw .invalidArgs("bus address contains a NUL byte") }
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw Self.failure(error, "cannot connect to \(address)")
        }
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw Self.failure(error, "cannot register with the bus at \(address)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
        uniqueName = String(cString: dbus_bus_get_unique_name(connection))
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// The `DBusError` libdbus set, with `context` before its message (none: just the message).
    private static func failure(_ error: CDBus.DBusError, _ context: String? = nil) -> DBusError {
        let name = error.name.map { String(cString: $0) } ?? DBusError.failedName
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        return DBusError(name: name, message: context.map { "\($0): \(message)" } ?? message)
    }

    // MARK: Calls

    /// Sends a copy of `call` and blocks until its reply; an error reply (or no reply within
    /// `timeout`) is thrown as its `DBusError`.
    @discardableResult
    public func call(_ call: EncodedCall, timeout: Duration = .seconds(30)) throws(DBusError) -> ReceivedMessage {
        ReceivedMessage(try callRaw(call, timeout: timeout))
    }

    /// `call`, dropping the reply unread (the measuring loop: nothing decoded).
    public func callDiscardingReply(_ call: EncodedCall, timeout: Duration = .seconds(30)) throws(DBusError) {
        dbus_message_unref(try callRaw(call, timeout: timeout))
    }

    private func callRaw(_ call: EncodedCall, timeout: Duration) throws(DBusError) -> OpaquePointer {
        guard let message = dbus_message_copy(call.message.raw) else {
            throw .failed("libdbus could not copy a message")
        }
        defer { dbus_message_unref(message) }
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        let milliseconds = Int32(clamping: timeout.nanoseconds / 1_000_000)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message, milliseconds, &error) else {
            throw Self.failure(error)
        }
        return reply
    }

    /// Queues `call` without waiting (its reply arrives through `next`); returns its serial.
    /// The first send of an `EncodedCall` sends the message itself, later ones a copy.
    @discardableResult
    public func send(_ call: EncodedCall) -> UInt32 {
        var serial: UInt32 = 0
        if call.sent {
            guard let copy = dbus_message_copy(call.message.raw) else { return 0 }
            defer { dbus_message_unref(copy) }
            _ = dbus_connection_send(raw, copy, &serial)
        } else {
            call.sent = true
            _ = dbus_connection_send(raw, call.message.raw, &serial)
        }
        return serial
    }

    /// Writes everything queued.
    public func flush() { dbus_connection_flush(raw) }

    /// The next incoming message, reading from the socket until `deadline`; nil when it
    /// passes or the connection is lost.
    public func next(until deadline: ContinuousClock.Instant) -> ReceivedMessage? {
        while true {
            if let message = dbus_connection_pop_message(raw) {
                return ReceivedMessage(message)
            }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return nil }
            if dbus_connection_read_write(raw, Self.milliseconds(left)) == 0 { return nil }
        }
    }

    /// `duration` (positive) in whole milliseconds for a poll, rounded up so that a wait never
    /// ends before it, and clamped: a far deadline must not overflow.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int32.max / 1000) else { return .max }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return Int32(seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond)
    }

    /// Subscribes to the signals `rule` matches (AddMatch, waited for).
    public func addMatch(_ rule: MatchRule) throws(DBusError) {
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(raw, rule.text, &error)
        if dbus_error_is_set(&error) != 0 { throw Self.failure(error) }
    }
}

/// A method call encoded once, for a `BlockingConnection` to send any number of times.
///
/// `@unchecked Sendable`: built on one thread, then used by one connection at a time.
public final class EncodedCall: @unchecked Sendable {
    let message: Message
    /// Whether `message` itself went out (it cannot be sent twice: later sends are copies).
    var sent = false

    /// Checks and encodes `call` (auto-start allowed). Throws `InvalidArgs` for values D-Bus
    /// cannot carry.
    public init(_ call: MethodCall) throws(DBusError) {
        message = try Message.methodCall(call, autoStart: true)
    }
}

/// A message a `BlockingConnection` received: a reply, an error or a signal.
public struct ReceivedMessage: @unchecked Sendable {
    /// What kind of message it is.
    public enum Kind: Sendable { case methodCall, methodReturn, error, signal, other }

    private let message: Message

    init(_ raw: OpaquePointer) { message = Message(taking: raw) }

    public var kind: Kind {
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    public var path: String? { message.path }
    public var member: String? { message.member }
    public var errorName: String? { message.errorName }
    public var replySerial: UInt32 { message.replySerial }
    /// The decoded body (decoded on each use).
    public var body: [Value] { message.body }
}
