// The module's error type: a D-Bus error name plus a message, and the standard names.

/// An error with a D-Bus error name, as received in an error reply or sent as one.
///
/// Every failure of this module is a `DBusError`; its `name` is what goes on the wire when a
/// handler throws it. (The C struct of the same name is `CDBus.DBusError`.)
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.NoReply`.
    public let name: String
    /// Human-readable text; never parse it.
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwnerName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    public static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    public static let timeoutName = "org.freedesktop.DBus.Error.Timeout"
    /// Not a standard name: a call abandoned by its (Swift task) caller.
    public static let cancelledName = "org.freedesktop.DBus.Error.Cancelled"

    public static func failed(_ message: String) -> DBusError { .init(name: failedName, message: message) }
    public static func invalidArgs(_ message: String) -> DBusError { .init(name: invalidArgsName, message: message) }
    public static func unknownMethod(_ message: String) -> DBusError {
        .init(name: unknownMethodName, message: message)
    }
    public static func unknownObject(_ message: String) -> DBusError {
        .init(name: unknownObjectName, message: message)
    }
    public static func unknownInterface(_ message: String) -> DBusError {
        .init(name: unknownInterfaceName, message: message)
    }
    public static func unknownProperty(_ message: String) -> DBusError {
        .init(name: unknownPropertyName, message: message)
    }
    public static func propertyReadOnly(_ message: String) -> DBusError {
        .init(name: propertyReadOnlyName, message: message)
    }
    public static func noReply(_ message: String) -> DBusError { .init(name: noReplyName, message: message) }
    public static func serviceUnknown(_ message: String) -> DBusError {
        .init(name: serviceUnknownName, message: message)
    }
    public static func disconnected(_ message: String = "the connection to the bus is closed") -> DBusError {
        .init(name: disconnectedName, message: message)
    }
    public static func cancelled(_ message: String = "the call was cancelled") -> DBusError {
        .init(name: cancelledName, message: message)
    }

    /// The error reply for anything a handler threw: its own name for `DBusError` and
    /// `DBusErrorConvertible`, `Failed` with `String(describing:)` otherwise.
    public init(replyingTo error: any Error) {
        if let error = error as? DBusError {
            self = error
        } else if let convertible = error as? any DBusErrorConvertible {
            self = convertible.dbusError
        } else {
            self = .failed(String(describing: error))
        }
    }
}

/// An error that knows its D-Bus form: thrown from a handler, it becomes an error reply with
/// that name and message.
public protocol DBusErrorConvertible: Error {
    var dbusError: DBusError { get }
}
