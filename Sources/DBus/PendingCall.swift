// Outgoing method calls: the pending-call handle, sending, timeouts and reply delivery.
import CDBus
import Dispatch
import Glibc
import Locking

/// An outgoing call awaiting its reply. `cancel()` may be called from any thread; once it
/// returns, the completion does not run (unless it was already running on the loop).
public final class PendingCall: @unchecked Sendable {
    // `finished` is guarded by `lock`; everything else is loop-confined.
    private let lock = Lock()
    private var finished = false
    private let completion: (Result<[Value], DBusError>) -> Void
    weak var connection: Connection?
    var serial: UInt32 = 0
    var timer: (any DispatchSourceTimer)?

    init(connection: Connection, completion: @escaping (Result<[Value], DBusError>) -> Void) {
        self.connection = connection
        self.completion = completion
    }

    /// Stops waiting; the completion will not be called.
    public func cancel() {
        guard markFinished() else { return }
        guard let connection else { return }
        connection.perform { [self] in
            timer?.cancel()
            timer = nil
            if serial != 0, connection.pendingCalls[serial] === self {
                connection.pendingCalls.removeValue(forKey: serial)
            }
        }
    }

    private func markFinished() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if finished { return false }
        finished = true
        return true
    }

    /// Delivers the result once (on the loop).
    func complete(_ result: Result<[Value], DBusError>) {
        timer?.cancel()
        timer = nil
        guard markFinished() else { return }
        completion(result)
    }
}

extension Connection {
    /// Sends a method call without blocking; `completion` runs on the loop with the reply body
    /// or the error (`NoReply` after `timeout`, `Disconnected`, the callee's error, `InvalidArgs`
    /// when the body cannot be encoded).
    ///
    /// `autoStart: false` asks the bus not to activate the destination. `timeout: nil` arms no
    /// timer: for a caller that ends the wait itself (`cancel()` at a deadline of its own), so
    /// that a call costs no timer set and cancelled on the loop.
    ///
    /// `completion` never runs before `call` returns, even for a failure known at once (a body
    /// that cannot be encoded, a closed connection): those are delivered in a later turn of the
    /// loop. So a caller on the loop may still send what must precede the outcome, and no
    /// completion runs inside code that is still setting up what it will touch (a stored
    /// `PendingCall`, a job's state).
    @discardableResult
    public func call(
        _ call: MethodCall, timeout: Duration? = .seconds(25), autoStart: Bool = true,
        completion: @escaping (Result<[Value], DBusError>) -> Void
    ) -> PendingCall {
        let pending = PendingCall(connection: self, completion: completion)
        let message: Message
        do {
            message = try Message.methodCall(call, autoStart: autoStart)
        } catch {
            queue.async { pending.complete(.failure(error)) }
            return pending
        }
        perform { self.send(message, pending: pending, timeout: timeout, description: "\(call.member)") }
        return pending
    }

    /// Sends a method call and waits for its reply body; throws the call's `DBusError`.
    /// Cancelling the task ends the wait with `Cancelled`.
    public func call(_ call: MethodCall, timeout: Duration = .seconds(25), autoStart: Bool = true) async throws(DBusError)
        -> [Value]
    {
        let waiter = CallWaiter()
        let result: Result<[Value], DBusError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard waiter.start(continuation) else { return }
                let pending = self.call(call, timeout: timeout, autoStart: autoStart) { waiter.resume($0) }
                waiter.attach(pending)
            }
        } onCancel: {
            waiter.cancel()
        }
        return try result.get()
    }

    /// Its failures complete `pending` in a later turn: `call` promises that its completion
    /// never runs before `call` returns.
    private func send(_ message: Message, pending: PendingCall, timeout: Duration?, description: String) {
        guard isOpen, let connection = raw else {
            queue.async { pending.complete(.failure(.disconnected())) }
            return
        }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message.raw, &serial) != 0 else {
            queue.async { pending.complete(.failure(.failed("libdbus could not send \(description)"))) }
            return
        }
        pending.serial = serial
        pendingCalls[serial] = pending
        guard let timeout else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self, weak pending] in
            guard let self, let pending, self.pendingCalls[serial] === pending else { return }
            self.pendingCalls.removeValue(forKey: serial)
            pending.complete(.failure(.noReply("no reply to \(description) within \(timeout)")))
        }
        timer.schedule(deadline: .now() + timeout.dispatchInterval)
        pending.timer = timer
        timer.resume()
    }

    /// Completes the pending call a method return or error belongs to. On the loop.
    func handleReply(_ message: Message) {
        guard let pending = pendingCalls.removeValue(forKey: message.replySerial) else { return }
        if message.type == DBUS_MESSAGE_TYPE_ERROR {
            pending.complete(.failure(message.error))
        } else {
            pending.complete(.success(message.body))
        }
    }

    /// Sends a message that expects no reply (signals, replies). On the loop.
    func sendOneWay(_ message: Message) {
        guard isOpen, let connection = raw else { return }
        if dbus_connection_send(connection, message.raw, nil) == 0 {
            log("libdbus could not send a message")
        }
    }
}

/// Bridges one call to `async`: resumes its continuation exactly once, whether the reply or the
/// task's cancellation comes first.
final class CallWaiter: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<Result<[Value], DBusError>, Never>?
    private var pending: PendingCall?
    private var cancelled = false

    /// Stores the continuation; false (and resumed with `Cancelled`) if the task is already cancelled.
    func start(_ continuation: CheckedContinuation<Result<[Value], DBusError>, Never>) -> Bool {
        lock.lock()
        if cancelled {
            lock.unlock()
            continuation.resume(returning: .failure(.cancelled()))
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Keeps `pending` for `cancel()` while the reply is awaited. Not once `resume` ran (the
    /// reply can come before this is called): `pending`'s completion holds this waiter, and
    /// nothing would break that cycle (LeakSanitizer found both leaked, with their locks).
    func attach(_ pending: PendingCall) {
        lock.lock()
        let cancelNow = cancelled
        if !cancelNow, continuation != nil { self.pending = pending }
        lock.unlock()
        if cancelNow { pending.cancel() }
    }

    func resume(_ result: Result<[Value], DBusError>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        pending = nil
        lock.unlock()
        continuation?.resume(returning: result)
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let pending = self.pending
        self.pending = nil
        lock.unlock()
        pending?.cancel()
        resume(.failure(.cancelled()))
    }
}

/// Reports a problem that has no caller to throw to (a handler's bad reply, a failed send).
func log(_ text: String) {
    let line = "DBus: \(text)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
