// Replies built from a ReplyAddress are those libdbus builds from the received call itself.
import CDBus
@testable import DBus
import Testing

/// `Responder` and the loop's own answers keep only the call's `ReplyAddress` and build replies
/// from it; these must carry what `dbus_message_new_method_return` / `dbus_message_new_error`
/// put in a reply to the same call: type, reply serial, destination, no-reply flag, error
/// name and body.
@Suite struct ReplyAddressTests {
    /// A call as the bus delivers it: serial and sender set (sender nil: a peer-to-peer link).
    static func received(serial: UInt32, sender: String?, noReply: Bool = false) throws -> Message {
        let call = try Message.methodCall(
            MethodCall(destination: "org.example.Callee", path: "/x", interface: "org.example.X", member: "Do"),
            autoStart: true)
        dbus_message_set_serial(call.raw, serial)
        if let sender { _ = sender.withCString { dbus_message_set_sender(call.raw, $0) } }
        dbus_message_set_no_reply(call.raw, noReply ? 1 : 0)
        return call
    }

    /// What a receiver reads of a reply.
    static func fields(_ message: Message) -> [String] {
        [
            "\(message.type)", "\(message.replySerial)", message.destination ?? "-", message.sender ?? "-",
            "\(message.noReplyExpected)", message.errorName ?? "-", message.signature, "\(message.body)",
        ]
    }

    @Test(arguments: [":1.7", nil] as [String?])
    func aMethodReturnIsLibdbusOwn(sender: String?) throws {
        let call = try Self.received(serial: 4_000_000_001, sender: sender)
        let ours = try Message.methodReturn(to: ReplyAddress(call), values: [.string("ok"), .uint32(3)])
        let theirs = Message(taking: try #require(dbus_message_new_method_return(call.raw)))
        try ValueCoding.append([.string("ok"), .uint32(3)], to: theirs.raw)
        #expect(Self.fields(ours) == Self.fields(theirs))
        #expect(ours.replySerial == 4_000_000_001 && ours.destination == sender)
    }

    @Test(arguments: [":1.7", nil] as [String?])
    func anErrorIsLibdbusOwn(sender: String?) throws {
        let call = try Self.received(serial: 9, sender: sender)
        let ours = try #require(
            Message.errorReply(to: ReplyAddress(call), error: DBusError(name: "org.example.Error.No", message: "not\0 now")))
        let theirs = Message(
            taking: try #require(dbus_message_new_error(call.raw, "org.example.Error.No", "not? now")))
        #expect(Self.fields(ours) == Self.fields(theirs))
        #expect(ours.errorName == "org.example.Error.No" && ours.body == [.string("not? now")])
        // An invalid name is Failed, as before.
        let failed = try #require(Message.errorReply(to: ReplyAddress(call), error: DBusError(name: "no dots", message: "")))
        #expect(failed.errorName == DBusError.failedName)
    }

    @Test func anEncodedReplyIsAddressedAlike() throws {
        let call = try Self.received(serial: 77, sender: ":1.42")
        let encoded = try EncodedReply([.stringArray(["a", "b"])])
        let ours = try #require(encoded.reply(to: ReplyAddress(call)))
        let theirs = Message(taking: try #require(dbus_message_new_method_return(call.raw)))
        try ValueCoding.append([.stringArray(["a", "b"])], to: theirs.raw)
        #expect(Self.fields(ours) == Self.fields(theirs))
    }

    @Test func theAddressKeepsTheNoReplyFlag() throws {
        #expect(ReplyAddress(try Self.received(serial: 1, sender: ":1.1", noReply: true)).noReplyExpected)
        #expect(!ReplyAddress(try Self.received(serial: 1, sender: ":1.1")).noReplyExpected)
    }
}
