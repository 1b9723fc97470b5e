// An owned reference to a libdbus message, with typed accessors and constructors.
import CDBus

/// One `DBusMessage`, released when this object goes away.
///
/// `@unchecked Sendable`: libdbus reference counting is thread-safe (threads are initialised by
/// `Connection`); a message is built on one thread and then only read, on the loop.
final class Message: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes over a reference the caller owns (from a `dbus_message_new_*`).
    init(taking raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference (`dbus_message_ref`) to a message libdbus lends us.
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

    var type: Int32 { dbus_message_get_type(raw) }
    var path: String? { Self.string(dbus_message_get_path(raw)) }
    var interface: String? { Self.string(dbus_message_get_interface(raw)) }
    var member: String? { Self.string(dbus_message_get_member(raw)) }
    var sender: String? { Self.string(dbus_message_get_sender(raw)) }
    var destination: String? { Self.string(dbus_message_get_destination(raw)) }
    var errorName: String? { Self.string(dbus_message_get_error_name(raw)) }
    var signature: String { Self.string(dbus_message_get_signature(raw)) ?? "" }
    var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// The decoded body.
    var body: [Value] { ValueCoding.decode(raw) }

    /// The `DBusError` an error message carries (its name, and its first string argument).
    var error: DBusError {
        let text = body.first?.string ?? ""
        return DBusError(name: errorName ?? DBusError.failedName, message: text)
    }

    private static func allocated(_ raw: OpaquePointer?) throws(DBusError) -> Message {
        guard let raw else { throw .failed("libdbus could not allocate a message") }
        return Message(taking: raw)
    }

    /// A method call; the names are valid by type, the body is checked while appending.
    static func methodCall(_ call: MethodCall, autoStart: Bool) throws(DBusError) -> Message {
        let raw = call.path.rawValue.withCString { path in
            call.member.rawValue.withCString { member in
                withOptionalCString(call.destination?.rawValue) { destination in
                    withOptionalCString(call.interface?.rawValue) { interface in
                        dbus_message_new_method_call(destination, path, interface, member)
                    }
                }
            }
        }
        let message = try allocated(raw)
        dbus_message_set_auto_start(raw, autoStart ? 1 : 0)
        try ValueCoding.append(call.body, to: message.raw)
        return message
    }

    /// A signal, unicast when `signal.destination` is set.
    static func signal(_ signal: Signal) throws(DBusError) -> Message {
        let raw = signal.path.rawValue.withCString { path in
            signal.interface.rawValue.withCString { interface in
                signal.member.rawValue.withCString { member in dbus_message_new_signal(path, interface, member) }
            }
        }
        let message = try allocated(raw)
        if let destination = signal.destination {
            let ok = destination.rawValue.withCString { dbus_message_set_destination(message.raw, $0) }
            if ok == 0 { throw .failed("libdbus could not set the destination") }
        }
        try ValueCoding.append(signal.body, to: message.raw)
        return message
    }

    /// A method return carrying `values`, addressed as `dbus_message_new_method_return` would
    /// address it to the call `address` was taken from.
    static func methodReturn(to address: ReplyAddress, values: [Value]) throws(DBusError) -> Message {
        let message = try allocated(dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN))
        guard address.address(message.raw) else { throw .failed("libdbus could not address a reply") }
        try ValueCoding.append(values, to: message.raw)
        return message
    }

    /// An error reply, as `dbus_message_new_error` would build it for the call `address` was
    /// taken from; nil when libdbus is out of memory. An invalid error name becomes `Failed`
    /// (libdbus would abort on it).
    static func errorReply(to address: ReplyAddress, error: DBusError) -> Message? {
        let name = (try? ErrorName(error.name))?.rawValue ?? DBusError.failedName
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_ERROR) else { return nil }
        let message = Message(taking: raw)
        guard name.withCString({ dbus_message_set_error_name(raw, $0) }) != 0, address.address(raw) else { return nil }
        do {
            try ValueCoding.append([.string(error.message.replacingNULs())], to: raw)
        } catch {
            return nil
        }
        return message
    }
}

/// Passes a C string, or NULL for nil.
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

extension String {
    /// The string with NUL bytes replaced, for text that must pass through C.
    func replacingNULs() -> String {
        utf8.contains(0) ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : self
    }
}
