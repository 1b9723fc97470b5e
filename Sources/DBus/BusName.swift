// BusName: a D-Bus bus name (unique or well-known), validated once by libdbus.
import CDBus

/// A bus name: unique (`:1.5`) or well-known (`org.example.Service`), validated with
/// `dbus_validate_bus_name`.
public struct BusName: LibdbusValidatedName {
    /// The name text; always valid.
    public let rawValue: String

    static let kind = "bus name"
    static let validator: Validator = dbus_validate_bus_name

    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// The bus itself, `org.freedesktop.DBus`.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")
}
