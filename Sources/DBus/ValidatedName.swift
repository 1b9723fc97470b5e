// What the validated D-Bus name types share: the protocol, and the one place their text is checked by libdbus.
import CDBus

/// What the name types share (zbus has a type for each kind of D-Bus name): text that a
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

/// How each name type is checked: its libdbus validator and the word its errors use. Internal,
/// so that wrapping text unchecked (text libdbus itself produced) stays in this module.
protocol LibdbusValidatedName: ValidatedName {
    /// What an error message calls it ("bus name").
    static var kind: String { get }
    /// The libdbus function that accepts valid text (`dbus_validate_bus_name`).
    static var validator: Validator { get }
    /// The struct's memberwise initializer: no check.
    init(rawValue: String)
}

/// A libdbus validator: 1 when the text is valid, else 0 with the reason in the error.
typealias Validator =
    @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t

extension LibdbusValidatedName {
    /// Validates `string` with `validator` after rejecting embedded NULs (which C would
    /// truncate); throws an `InvalidArgs` `DBusError` naming the kind when it is not valid.
    public init(_ string: String) throws(DBusError) {
        if string.utf8.contains(0) {
            throw .invalidArgs("invalid \(Self.kind) \(string.debugDescription): contains a NUL byte")
        }
        var error = cdbus_error_make()
        let ok = string.withCString { Self.validator($0, &error) } != 0
        defer { dbus_error_free(&error) }
        if !ok {
            let why = error.message.map { String(cString: $0) } ?? "not valid"
            throw .invalidArgs("invalid \(Self.kind) \(string.debugDescription): \(why)")
        }
        self.init(rawValue: string)
    }

    /// Wraps text known to be valid: a constant, or what libdbus itself produced.
    init(unchecked string: String) { self.init(rawValue: string) }
}
