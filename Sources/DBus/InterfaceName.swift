// InterfaceName: a D-Bus interface name, validated once by libdbus; the freedesktop interfaces.
import CDBus

/// An interface name such as `org.example.Thing1`, validated with `dbus_validate_interface`.
public struct InterfaceName: LibdbusValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    static let kind = "interface name"
    static let validator: Validator = dbus_validate_interface

    public static let introspectable = InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    public static let peer = InterfaceName(unchecked: "org.freedesktop.DBus.Peer")
    public static let properties = InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")
}
