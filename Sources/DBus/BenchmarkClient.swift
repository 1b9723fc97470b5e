// The benchmark's client side: a blocking libdbus connection with no event loop, so the timing loop adds no thread hops.
// `package` access: broker-bench (this package) uses it; it is not part of the module's public API.
import CDBus
import Foundation

/// A value to encode into a message body (only the shapes the broker's methods take).
package enum Arg {
    case s(String)
    case o(String)
    case b(Bool)
    case u(UInt32)
    case i(Int32)
    case strings([String])
    /// `a{ss}`.
    case stringDict([(String, String)])
    /// `a{sv}`: each value is wrapped in a variant.
    case vardict([(String, Arg)])

    package var signature: String {
        switch self {
        case .s: "s"
        case .o: "o"
        case .b: "b"
        case .u: "u"
        case .i: "i"
        case .strings: "as"
        case .stringDict: "a{ss}"
        case .vardict: "a{sv}"
        }
    }
}

/// A message received by `RawClient.next`.
package struct Received {
    package let type: Int32
    package let path: String
    package let member: String
    package let replySerial: UInt32
    /// The top-level string and object-path arguments, in order.
    package let strings: [String]
    package var firstString: String? { strings.first }
}

/// One private connection driven synchronously by the thread that uses it (libdbus's own
/// blocking calls: `send_with_reply_and_block`, `read_write`). Not shared between threads.
///
/// This is the measuring client: one call outstanding, the calling thread blocks in `poll`
/// until the reply arrives, so each sample is one full round trip through the daemon and the
/// broker with no dispatch queue or task hop on our side.
package final class RawClient: @unchecked Sendable {
    package let raw: OpaquePointer
    package let uniqueName: String

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    package init(address: String) throws {
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw Failure(description: "cannot connect to \(address): \(Self.text(error))")
        }
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw Failure(description: "cannot register with the bus: \(Self.text(error))")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
        uniqueName = String(cString: dbus_bus_get_unique_name(connection))
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    private static func text(_ error: CDBus.DBusError) -> String {
        let name = error.name.map { String(cString: $0) } ?? "?"
        let message = error.message.map { String(cString: $0) } ?? ""
        return "\(name): \(message)"
    }

    // MARK: Building messages

    /// A method call with `args` as its body; reuse it as a template with `copy`.
    package static func methodCall(destination: String?, path: String, interface: String, member: String, _ args: [Arg])
        -> OpaquePointer
    {
        let message = dbus_message_new_method_call(destination, path, interface, member)!
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for arg in args { append(arg, &iter) }
        return message
    }

    private static func appendString(_ text: String, code: Int32, _ iter: inout DBusMessageIter) {
        text.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            _ = dbus_message_iter_append_basic(&iter, code, &pointer)
        }
    }

    private static func append(_ arg: Arg, _ iter: inout DBusMessageIter) {
        switch arg {
        case .s(let text): appendString(text, code: CDBUS_TYPE_STRING, &iter)
        case .o(let text): appendString(text, code: CDBUS_TYPE_OBJECT_PATH, &iter)
        case .b(let flag):
            var value: dbus_bool_t = flag ? 1 : 0
            _ = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &value)
        case .u(let number):
            var value = number
            _ = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &value)
        case .i(let number):
            var value = number
            _ = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &value)
        case .strings(let list):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iter, CDBUS_TYPE_ARRAY, "s", &sub)
            for item in list { appendString(item, code: CDBUS_TYPE_STRING, &sub) }
            _ = dbus_message_iter_close_container(&iter, &sub)
        case .stringDict(let entries):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iter, CDBUS_TYPE_ARRAY, "{ss}", &sub)
            for (key, value) in entries {
                var entry = DBusMessageIter()
                _ = dbus_message_iter_open_container(&sub, CDBUS_TYPE_DICT_ENTRY, nil, &entry)
                appendString(key, code: CDBUS_TYPE_STRING, &entry)
                appendString(value, code: CDBUS_TYPE_STRING, &entry)
                _ = dbus_message_iter_close_container(&sub, &entry)
            }
            _ = dbus_message_iter_close_container(&iter, &sub)
        case .vardict(let entries):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iter, CDBUS_TYPE_ARRAY, "{sv}", &sub)
            for (key, value) in entries {
                var entry = DBusMessageIter()
                _ = dbus_message_iter_open_container(&sub, CDBUS_TYPE_DICT_ENTRY, nil, &entry)
                appendString(key, code: CDBUS_TYPE_STRING, &entry)
                var variant = DBusMessageIter()
                _ = dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, value.signature, &variant)
                append(value, &variant)
                _ = dbus_message_iter_close_container(&entry, &variant)
                _ = dbus_message_iter_close_container(&sub, &entry)
            }
            _ = dbus_message_iter_close_container(&iter, &sub)
        }
    }

    // MARK: Calls

    /// Sends a copy of `template` and blocks until its reply; returns the reply (caller unrefs).
    /// Throws the error reply's name and message.
    package func call(_ template: OpaquePointer, timeoutMilliseconds: Int32 = 30_000) throws -> OpaquePointer {
        let message = dbus_message_copy(template)!
        defer { dbus_message_unref(message) }
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message, timeoutMilliseconds, &error) else {
            throw Failure(description: Self.text(error))
        }
        return reply
    }

    /// `call`, discarding the reply.
    package func callDiscarding(_ template: OpaquePointer) throws {
        dbus_message_unref(try call(template))
    }

    /// Queues a copy of `template` without waiting; returns its serial.
    @discardableResult
    package func send(_ template: OpaquePointer) -> UInt32 {
        let message = dbus_message_copy(template)!
        defer { dbus_message_unref(message) }
        var serial: UInt32 = 0
        _ = dbus_connection_send(raw, message, &serial)
        return serial
    }

    /// Queues `message` itself (built for this one send) without waiting; returns its serial.
    @discardableResult
    package func sendOwned(_ message: OpaquePointer) -> UInt32 {
        defer { dbus_message_unref(message) }
        var serial: UInt32 = 0
        _ = dbus_connection_send(raw, message, &serial)
        return serial
    }

    /// Writes everything queued.
    package func flush() { dbus_connection_flush(raw) }

    /// The next incoming message, reading from the socket until `deadline`; nil when it passes.
    package func next(until deadline: ContinuousClock.Instant) -> Received? {
        while true {
            if let message = dbus_connection_pop_message(raw) {
                defer { dbus_message_unref(message) }
                return Received(
                    type: dbus_message_get_type(message),
                    path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
                    member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
                    replySerial: dbus_message_get_reply_serial(message),
                    strings: Self.strings(message))
            }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return nil }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
            if dbus_connection_read_write(raw, milliseconds) == 0 { return nil }
        }
    }

    /// Subscribes to signals matching `rule` (AddMatch, waited for).
    package func addMatch(_ rule: String) throws {
        var error = cdbus_error_make()
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(raw, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw Failure(description: Self.text(error)) }
    }

    // MARK: Reading replies

    /// The first argument when it is a string or object path.
    package static func firstString(_ message: OpaquePointer) -> String? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return nil }
        let type = dbus_message_iter_get_arg_type(&iter)
        guard type == CDBUS_TYPE_STRING || type == CDBUS_TYPE_OBJECT_PATH else { return nil }
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) }
    }

    /// The top-level string and object-path arguments.
    package static func strings(_ message: OpaquePointer) -> [String] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var result: [String] = []
        repeat {
            let type = dbus_message_iter_get_arg_type(&iter)
            if type == CDBUS_TYPE_STRING || type == CDBUS_TYPE_OBJECT_PATH {
                var pointer: UnsafePointer<CChar>? = nil
                dbus_message_iter_get_basic(&iter, &pointer)
                result.append(pointer.map { String(cString: $0) } ?? "")
            }
        } while dbus_message_iter_next(&iter) != 0
        return result
    }

    /// The number of elements of the first argument, an array.
    package static func arrayLength(_ message: OpaquePointer) -> Int {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0, dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_ARRAY
        else { return -1 }
        return Int(dbus_message_iter_get_element_count(&iter))
    }

    /// Drops our reference to a message built or received here.
    package static func release(_ message: OpaquePointer) { dbus_message_unref(message) }

    /// The error name of an error message, or nil.
    package static func errorName(_ message: OpaquePointer) -> String? {
        dbus_message_get_error_name(message).map { String(cString: $0) }
    }
}
