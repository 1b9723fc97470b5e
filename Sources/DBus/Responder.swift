// The one-shot reply handle of a method call.
import Locking

/// Replies to one method call, once, from any thread (the reply is sent on the loop).
///
/// Replying twice is a programmer error (precondition). A responder released without a reply
/// answers `org.freedesktop.DBus.Error.Failed`, so a caller never waits for a reply that cannot come.
///
/// It keeps the call's `ReplyAddress`, not the received message: a handler may hold it through
/// a long wait, and a held message would count against `IncomingLimits.bytes` (see there).
public final class Responder: @unchecked Sendable {
    // `replied` is guarded by `lock`; the rest is immutable.
    private let lock = Lock()
    private var replied = false
    private let connection: Connection
    private let call: ReplyAddress
    private let outSignature: Signature
    private let interface: InterfaceName
    private let member: MemberName

    init(connection: Connection, call: ReplyAddress, outSignature: Signature, interface: InterfaceName, member: MemberName) {
        self.connection = connection
        self.call = call
        self.outSignature = outSignature
        self.interface = interface
        self.member = member
    }

    /// The method's name for messages; built only when one is written (not per call).
    private var what: String { "\(interface).\(member)" }

    deinit {
        if !replied {
            send(.failure(.failed("\(what) was dropped without a reply")))
        }
    }

    /// Whether `reply` or `fail` has been called.
    public var hasReplied: Bool {
        lock.lock()
        defer { lock.unlock() }
        return replied
    }

    private func claim() {
        lock.lock()
        defer { lock.unlock() }
        precondition(!replied, "\(what) replied to twice")
        replied = true
    }

    /// Sends the reply values; they must match the method's out-signature, else the caller gets
    /// `Failed` and the mismatch is logged.
    public func reply(_ values: [Value] = []) {
        claim()
        send(.values(values))
    }

    /// Sends a reply encoded beforehand (a cached answer): a copy of its template with this call's
    /// serial and sender. Its signature must match the method's out-signature, else the caller
    /// gets `Failed` and the mismatch is logged.
    public func reply(encoded: EncodedReply) {
        claim()
        send(.encoded(encoded))
    }

    /// Sends an error reply: `DBusError` and `DBusErrorConvertible` keep their name, any other
    /// error becomes `Failed`.
    public func fail(_ error: any Error) {
        claim()
        send(.failure(DBusError(replyingTo: error)))
    }

    private func wrongType(_ signature: Signature) -> Message? {
        log("\(what) replied with signature '\(signature)', expected '\(outSignature)'")
        return Message.errorReply(to: call, error: .failed("\(what) produced a reply of the wrong type"))
    }

    private enum Outcome {
        case values([Value])
        case encoded(EncodedReply)
        case failure(DBusError)
    }

    private func send(_ outcome: Outcome) {
        if call.noReplyExpected { return }
        let message: Message?
        switch outcome {
        case .values(let values):
            let signature = Value.signature(of: values)
            if signature != outSignature {
                message = wrongType(signature)
            } else {
                do {
                    message = try Message.methodReturn(to: call, values: values)
                } catch {
                    log("\(what) reply could not be encoded: \(error)")
                    message = Message.errorReply(to: call, error: .failed("\(what) reply could not be encoded"))
                }
            }
        case .encoded(let reply):
            message = reply.signature == outSignature ? reply.reply(to: call) : wrongType(reply.signature)
        case .failure(let error):
            message = Message.errorReply(to: call, error: error)
        }
        guard let message else { return }
        let connection = connection
        connection.perform { connection.sendOneWay(message) }
    }
}
