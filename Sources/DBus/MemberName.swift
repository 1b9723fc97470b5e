// MemberName: a D-Bus method, signal or property name, validated once by libdbus.
import CDBus

/// A method, signal or property name such as `Perform`, validated with `dbus_validate_member`.
public struct MemberName: LibdbusValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    static let kind = "member name"
    static let validator: Validator = dbus_validate_member
}
