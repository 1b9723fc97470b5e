// A method reply body encoded once and sent to many calls (a cached answer, not re-encoded per call).
import CDBus

/// Reply values already checked and marshalled into a libdbus method-return template.
///
/// Build it once (`init` runs every check `Responder.reply` runs and throws `InvalidArgs` for
/// values libdbus would abort on) and answer any number of calls with it through a
/// `MethodHandler.encoded` handler or `Responder.reply(encoded:)`. Each reply is a
/// `dbus_message_copy` of the template with the call's serial and sender filled in, so the body
/// is not walked again. Immutable after `init`; safe to share between threads.
public final class EncodedReply: @unchecked Sendable {
    /// The template: a method return without reply serial or destination. Never sent itself,
    /// only copied (libdbus copies take their own reference and header).
    private let template: Message
    /// The body signature, compared with the method's out-signature at each reply.
    public let signature: Signature
    /// The template's marshalled size in bytes, header and body: what `dbus_message_marshal`
    /// would give, counted while encoding (`WireLength`) rather than by marshalling a copy.
    /// What a cache of replies counts against its budget. Each reply sent is this plus its
    /// reply serial and destination fields.
    public let wireLength: Int

    /// Checks and encodes `values`. Throws `InvalidArgs` for inconsistent values (see `Value`),
    /// `Failed` when libdbus runs out of memory.
    public init(_ values: [Value]) throws(DBusError) {
        let type = dbus_message_type_from_string("method_return")
        guard let raw = dbus_message_new(type) else { throw .failed("libdbus could not allocate a message") }
        let message = Message(taking: raw)
        // As dbus_message_new_method_return does: nobody answers a reply.
        dbus_message_set_no_reply(raw, 1)
        let bodyLength = try ValueCoding.append(values, to: raw)
        template = message
        signature = Value.signature(of: values)
        wireLength = WireLength.bareHeader(signature: signature) + bodyLength
    }

    /// The decoded body (for tests and logs; decodes the template each time).
    public var values: [Value] { template.body }

    /// A copy of the template addressed as the reply to the call `address` was taken from; nil
    /// when libdbus is out of memory.
    func reply(to address: ReplyAddress) -> Message? {
        guard let copy = dbus_message_copy(template.raw) else { return nil }
        let message = Message(taking: copy)
        return address.address(copy) ? message : nil
    }
}
