// Where the reply to a received method call goes: its serial, its sender and its no-reply flag.
import CDBus

/// What answering a method call needs of it, copied out of the received message so that the
/// message itself can go once its body is decoded.
///
/// Why not keep the message: libdbus counts every received message still alive against the
/// connection's `IncomingLimits.bytes` and stops reading past it. A handler that waits (on the
/// bus daemon, another service, a user) with its `Responder` would otherwise hold the whole
/// call, and one large call (the bus passes far larger than 16 MB) would leave the awaited
/// answer, and every other peer's message, unread. This is a few dozen bytes whatever the call.
///
/// The replies built from it are those of `dbus_message_new_method_return` and
/// `dbus_message_new_error`: the same type, reply serial, destination (the caller's unique name;
/// none on a peer-to-peer link) and no-reply flag.
struct ReplyAddress: Sendable {
    /// The call's serial: the reply's reply serial.
    let serial: UInt32
    /// The caller's unique name, set by the bus (valid); nil on a peer-to-peer connection.
    let sender: String?
    /// The caller asked for no reply: nothing is sent.
    let noReplyExpected: Bool

    init(_ call: Message) {
        serial = dbus_message_get_serial(call.raw)
        sender = call.sender
        noReplyExpected = call.noReplyExpected
    }

    /// Sets the reply serial and destination of `reply`, a new method return or error, and marks
    /// it as expecting no reply (nobody answers a reply); false when libdbus is out of memory.
    func address(_ reply: OpaquePointer) -> Bool {
        dbus_message_set_no_reply(reply, 1)
        guard dbus_message_set_reply_serial(reply, serial) != 0 else { return false }
        guard let sender else { return true }
        return sender.withCString { dbus_message_set_destination(reply, $0) } != 0
    }
}
