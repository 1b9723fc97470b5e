// ErrorName: a D-Bus error name, validated once by libdbus.
import CDBus

/// An error name such as `org.freedesktop.DBus.Error.Failed`, validated with
/// `dbus_validate_error_name`.
public struct ErrorName: LibdbusValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    static let kind = "error name"
    static let validator: Validator = dbus_validate_error_name
}
