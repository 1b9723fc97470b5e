// Signature: a D-Bus type signature, validated once by libdbus.
import CDBus

/// A type signature such as `a{sv}` (zero or more complete types), validated with
/// `dbus_signature_validate`.
public struct Signature: LibdbusValidatedName {
    /// The signature text; always valid.
    public let rawValue: String

    static let kind = "signature"
    static let validator: Validator = dbus_signature_validate

    /// The signature of no values.
    public static let empty = Signature(unchecked: "")

    /// Whether this is exactly one complete type (what a variant or an array element holds).
    public var isSingleCompleteType: Bool {
        rawValue.withCString { dbus_signature_validate_single($0, nil) } != 0
    }
}

extension Signature {
    /// The concatenation of several signatures (for a message body).
    public init(concatenating parts: [Signature]) {
        self.init(rawValue: parts.map(\.rawValue).joined())
    }
}
