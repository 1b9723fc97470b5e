// The D-Bus type system as a Swift value: basic types, arrays, dictionaries, structs, variants.

/// One entry of a D-Bus dictionary (`{kv}`), as decoded. Other modules build dictionaries with
/// `vardict` and `stringDict`; the memberwise init is this module's (and its tests').
public struct DictEntry: Hashable, Sendable {
    public var key: Value
    public var value: Value
}

/// Any D-Bus value.
///
/// Arrays and dictionaries carry their element signatures so that empty ones can be encoded.
/// A value built by hand may be inconsistent (an `.array(element: "s", [.int32(1)])`); encoding
/// checks that and throws `InvalidArgs` instead of handing libdbus something it would abort on.
public indirect enum Value: Hashable, Sendable {
    case byte(UInt8), boolean(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64), double(Double), string(String)
    case objectPath(ObjectPath), signature(Signature)
    /// `h`: a received descriptor is owned by the value (`UnixFD`).
    case unixFD(UnixFD)
    /// `a<element>`; `element` must be a single complete type and every item must have it.
    case array(element: Signature, [Value])
    /// `a{<key><value>}`; `key` must be a basic type.
    case dictionary(key: Signature, value: Signature, [DictEntry])
    /// `(...)`; must not be empty.
    case structure([Value])
    case variant(Value)

    /// The D-Bus signature of this value (one complete type).
    public var signature: Signature { Signature(unchecked: signatureText) }

    /// Whether this value's signature is `text`, without building it for the common shapes.
    func hasSignature(_ text: String) -> Bool {
        switch self {
        case .string: text == "s"
        case .variant: text == "v"
        case .boolean: text == "b"
        case .uint32: text == "u"
        case .int32: text == "i"
        case .objectPath: text == "o"
        case .dictionary(let key, let value, _): Self.isDictionarySignature(text, key: key, value: value)
        default: signatureText == text
        }
    }

    /// Whether `text` is `a{<key><value>}`, compared byte by byte without building it.
    private static func isDictionarySignature(_ text: String, key: Signature, value: Signature) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "a"), bytes.next() == UInt8(ascii: "{") else { return false }
        for byte in key.rawValue.utf8 where bytes.next() != byte { return false }
        for byte in value.rawValue.utf8 where bytes.next() != byte { return false }
        return bytes.next() == UInt8(ascii: "}") && bytes.next() == nil
    }

    /// Whether this is a basic (non-container) value: its signature is one type code.
    var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }

    /// The type code of a basic value, in static storage that C reads without a copy (the
    /// encoder's fast path for a basic value in a variant); nil for a container.
    var basicTypeCode: StaticString? {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array, .dictionary, .structure, .variant: nil
        }
    }

    var signatureText: String {
        switch self {
        case .array(let element, _): "a" + element.rawValue
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        case .variant: "v"
        default: basicTypeCode!.description  // every other case is basic
        }
    }

    /// The signature of a sequence of values (a message body).
    public static func signature(of values: [Value]) -> Signature {
        Signature(unchecked: values.map(\.signatureText).joined())
    }

    /// A string value from raw bytes; throws `InvalidArgs` unless they are UTF-8 without NULs
    /// (checked with `dbus_validate_utf8`).
    public static func string(validatingUTF8 bytes: [UInt8]) throws(DBusError) -> Value {
        try ValueCoding.checkUTF8(bytes)
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    // MARK: Convenience constructors

    /// `a{sv}`: each value wrapped in a variant.
    public static func vardict(_ dictionary: [String: Value]) -> Value {
        .dictionary(
            key: "s", value: "v",
            dictionary.sorted { $0.key < $1.key }.map { DictEntry(key: .string($0.key), value: .variant($0.value)) })
    }

    /// `as`.
    public static func stringArray(_ strings: [String]) -> Value {
        .array(element: "s", strings.map { .string($0) })
    }

    /// `aa{sv}`.
    public static func vardictArray(_ dictionaries: [[String: Value]]) -> Value {
        .array(element: "a{sv}", dictionaries.map { vardict($0) })
    }

    /// `a(sv)`: named values in the order given, each value in a variant. systemd's
    /// `StartTransientUnit` and other calls take properties this way (an `a{sv}` would lose
    /// the order and any repeated name).
    public static func propertyArray(_ properties: [(name: String, value: Value)]) -> Value {
        .array(element: "(sv)", properties.map { .structure([.string($0.name), .variant($0.value)]) })
    }

    /// `a{ss}`.
    public static func stringDict(_ dictionary: [String: String]) -> Value {
        .dictionary(
            key: "s", value: "s",
            dictionary.sorted { $0.key < $1.key }.map { DictEntry(key: .string($0.key), value: .string($0.value)) })
    }

    // MARK: Accessors (nil when the case does not match; variants are not looked through)

    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var bool: Bool? { if case .boolean(let v) = self { v } else { nil } }
    public var byte: UInt8? { if case .byte(let v) = self { v } else { nil } }
    public var int32: Int32? { if case .int32(let v) = self { v } else { nil } }
    public var uint32: UInt32? { if case .uint32(let v) = self { v } else { nil } }
    public var int64: Int64? { if case .int64(let v) = self { v } else { nil } }
    public var uint64: UInt64? { if case .uint64(let v) = self { v } else { nil } }
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    public var objectPath: ObjectPath? { if case .objectPath(let v) = self { v } else { nil } }

    /// The items of an array (not of a dictionary).
    public var array: [Value]? { if case .array(_, let v) = self { v } else { nil } }

    /// The fields of a struct.
    public var structure: [Value]? { if case .structure(let v) = self { v } else { nil } }

    /// The entries of a dictionary.
    public var dictEntries: [DictEntry]? { if case .dictionary(_, _, let v) = self { v } else { nil } }

    /// An `as` as strings (nil if any item is not a string).
    public var stringArray: [String]? {
        guard case .array(_, let items) = self else { return nil }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let s = item.string else { return nil }
            out.append(s)
        }
        return out
    }

    /// An `a{sv}` (or any string-keyed dictionary) with values unwrapped from their variants.
    public var vardict: [String: Value]? {
        guard case .dictionary(_, _, let entries) = self else { return nil }
        var out: [String: Value] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            out[key] = entry.value.unwrapped
        }
        return out
    }

    /// An `a(sv)` as named values in their order, unwrapped from their variants (nil unless
    /// every item is a struct of a string and a variant).
    public var propertyArray: [(name: String, value: Value)]? {
        guard case .array(_, let items) = self else { return nil }
        var out: [(name: String, value: Value)] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case .structure(let fields) = item, fields.count == 2, let name = fields[0].string,
                case .variant(let value) = fields[1]
            else { return nil }
            out.append((name, value.unwrapped))
        }
        return out
    }

    /// An `a{ss}` as a Swift dictionary.
    public var stringDict: [String: String]? {
        guard case .dictionary(_, _, let entries) = self else { return nil }
        var out: [String: String] = [:]
        for entry in entries {
            guard let key = entry.key.string, let value = entry.value.string else { return nil }
            out[key] = value
        }
        return out
    }

    /// The value with any number of `.variant` layers stripped.
    public var unwrapped: Value {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }
}
