// ObjectPath: a D-Bus object path, validated once by libdbus.
import CDBus

/// A D-Bus object path such as `/org/example/Object`, validated with `dbus_validate_path`.
public struct ObjectPath: LibdbusValidatedName {
    /// The path text; always valid.
    public let rawValue: String

    static let kind = "object path"
    static let validator: Validator = dbus_validate_path

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
