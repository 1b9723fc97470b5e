// Validated D-Bus name types: object paths, bus/interface/member/error names and signatures.
import CDBus

/// Runs a libdbus validator on `string` after rejecting embedded NULs (which C would truncate),
/// and returns it.
private func validated(
    _ string: String, _ kind: String,
    _ check: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t
) throws(DBusError) -> String {
    if string.utf8.contains(0) {
        throw .invalidArgs("invalid \(kind) \(string.debugDescription): contains a NUL byte")
    }
    var error = cdbus_error_make()
    let ok = string.withCString { check($0, &error) } != 0
    defer { dbus_error_free(&error) }
    if !ok {
        let why = error.message.map { String(cString: $0) } ?? "not valid"
        throw .invalidArgs("invalid \(kind) \(string.debugDescription): \(why)")
    }
    return string
}

/// What the name types below share (zbus has a type for each kind of D-Bus name): text that a
/// libdbus validator accepted once, at construction; a literal that must be valid; ordering and
/// printing by the text.
public protocol ValidatedName: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
where StringLiteralType == String {
    /// The text; always valid.
    var rawValue: String { get }
    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not of this kind.
    init(_ string: String) throws(DBusError)
}

extension ValidatedName {
    /// A literal must be valid: an invalid literal is a programmer error (precondition). Note that
    /// `T("…")` with a literal argument is a literal coercion and lands here too.
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure(error.description) }
    }

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A D-Bus object path such as `/org/example/Object`, validated with `dbus_validate_path`.
public struct ObjectPath: ValidatedName {
    /// The path text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not an object path.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "object path", dbus_validate_path)
    }

    init(unchecked string: String) { rawValue = string }

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// This path with one more element; throws `InvalidArgs` when `element` is not a valid element
    /// (`[A-Za-z0-9_]+`).
    public func appending(_ element: String) throws(DBusError) -> ObjectPath {
        try ObjectPath(isRoot ? "/" + element : rawValue + "/" + element)
    }

    /// Whether this is `/`.
    public var isRoot: Bool { rawValue == "/" }

    /// The parent path, nil for `/`.
    public var parent: ObjectPath? {
        guard !isRoot, let slash = rawValue.lastIndex(of: "/") else { return nil }
        let head = rawValue[..<slash]
        return ObjectPath(unchecked: head.isEmpty ? "/" : String(head))
    }

    /// Whether `self` is a strict ancestor of `other`.
    public func isAncestor(of other: ObjectPath) -> Bool {
        if self == other { return false }
        if isRoot { return true }
        return other.rawValue.hasPrefix(rawValue + "/")
    }
}

/// A bus name: unique (`:1.5`) or well-known (`org.example.Service`), validated with
/// `dbus_validate_bus_name`.
public struct BusName: ValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not a bus name.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "bus name", dbus_validate_bus_name)
    }

    init(unchecked string: String) { rawValue = string }

    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// The bus itself, `org.freedesktop.DBus`.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")
}

/// An interface name such as `org.example.Thing1`, validated with `dbus_validate_interface`.
public struct InterfaceName: ValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not an interface name.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "interface name", dbus_validate_interface)
    }

    init(unchecked string: String) { rawValue = string }

    public static let introspectable = InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    public static let peer = InterfaceName(unchecked: "org.freedesktop.DBus.Peer")
    public static let properties = InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")
}

/// A method, signal or property name such as `Perform`, validated with `dbus_validate_member`.
public struct MemberName: ValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not a member name.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "member name", dbus_validate_member)
    }

    init(unchecked string: String) { rawValue = string }
}

/// An error name such as `org.freedesktop.DBus.Error.Failed`, validated with
/// `dbus_validate_error_name`.
public struct ErrorName: ValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not an error name.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "error name", dbus_validate_error_name)
    }

    init(unchecked string: String) { rawValue = string }
}

/// A type signature such as `a{sv}` (zero or more complete types), validated with
/// `dbus_signature_validate`.
public struct Signature: ValidatedName {
    /// The signature text; always valid.
    public let rawValue: String

    /// Validates `string`; throws an `InvalidArgs` `DBusError` when it is not a signature.
    public init(_ string: String) throws(DBusError) {
        rawValue = try validated(string, "signature", dbus_signature_validate)
    }

    init(unchecked string: String) { rawValue = string }

    /// The signature of no values.
    public static let empty = Signature(unchecked: "")

    /// Whether this is exactly one complete type (what a variant or an array element holds).
    public var isSingleCompleteType: Bool {
        rawValue.withCString { dbus_signature_validate_single($0, nil) } != 0
    }

    /// The concatenation of several signatures (for a message body).
    public init(concatenating parts: [Signature]) {
        rawValue = parts.map(\.rawValue).joined()
    }
}
