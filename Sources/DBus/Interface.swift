// Exported interfaces as tables: methods with signatures and handlers, properties, signals.

/// A named argument of a method or signal (names appear in introspection only).
public struct Argument: Sendable {
    public let name: String
    public let signature: Signature
    public init(_ name: String, _ signature: Signature) {
        self.name = name
        self.signature = signature
    }

    public init(name: String, signature: Signature) {
        self.init(name, signature)
    }
}

/// How a method answers.
///
/// Both run on the connection's loop. What they throw becomes the error reply
/// (`DBusError` / `DBusErrorConvertible` keep their names, anything else is `Failed`).
public enum MethodHandler: Sendable {
    /// Returns the reply values at once; they must match the method's out-signature.
    case immediate(@Sendable (MethodInvocation) throws -> [Value])
    /// Returns a reply encoded beforehand (`EncodedReply`, e.g. a cached answer): sent as a copy
    /// with no per-call encoding. Its signature must match the method's out-signature.
    case encoded(@Sendable (MethodInvocation) throws -> EncodedReply)
    /// Replies later through the `Responder` (from any thread). Throwing before replying replies
    /// with the error.
    case deferred(@Sendable (MethodInvocation, Responder) throws -> Void)
}

/// One method of an interface table.
public struct Method: Sendable {
    public let name: MemberName
    public let inArguments: [Argument]
    public let outArguments: [Argument]
    public let handler: MethodHandler
    /// The body signature a call must have; anything else is answered with `InvalidArgs`.
    public let inSignature: Signature
    /// The body signature a reply must have; a handler returning anything else replies `Failed`.
    public let outSignature: Signature
    /// The method only reads: under load the loop may answer it before other peers' queued
    /// calls (never before its own caller's earlier ones). See `SenderQueues`.
    public let readOnly: Bool

    public init(
        _ name: MemberName, in inArguments: [Argument] = [], out outArguments: [Argument] = [], readOnly: Bool = false,
        handler: MethodHandler
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.readOnly = readOnly
        self.handler = handler
        inSignature = Signature(concatenating: inArguments.map(\.signature))
        outSignature = Signature(concatenating: outArguments.map(\.signature))
    }
}

/// What a property is, without behaviour: its name, type, access and whether changes are
/// announced. A wire contract declares it once; `Property` pairs it with the handlers, and
/// introspection reads it.
public struct PropertySpec: Sendable {
    public enum Access: Sendable { case read, readWrite }

    public let name: MemberName
    public let signature: Signature
    public let access: Access
    /// Whether changes are announced with PropertiesChanged (also after a successful Set).
    public let emitsChanged: Bool

    public init(
        _ name: MemberName, _ signature: Signature, access: Access = .read, emitsChanged: Bool = true
    ) {
        self.name = name
        self.signature = signature
        self.access = access
        self.emitsChanged = emitsChanged
    }
}

/// One property of an interface table, answered through `org.freedesktop.DBus.Properties`:
/// its declaration and the handlers that read and write it.
public struct Property: Sendable {
    public typealias Access = PropertySpec.Access

    /// What the property is on the wire (name, type, access); introspection reads it.
    public let spec: PropertySpec
    let get: @Sendable () -> Value
    let set: (@Sendable (Value, _ sender: String) throws -> Void)?

    /// `get` and `set` run on the loop. `set` receives a value already checked against
    /// `spec.signature`; what it throws becomes the error reply. A `.readWrite` property needs `set`.
    public init(
        _ spec: PropertySpec, get: @escaping @Sendable () -> Value,
        set: (@Sendable (Value, _ sender: String) throws -> Void)? = nil
    ) {
        precondition(
            spec.access == .read || set != nil, "read-write property \(spec.name) needs a setter")
        self.spec = spec
        self.get = get
        self.set = set
    }

    /// A property declared in place: `PropertySpec(name, signature, access:, emitsChanged:)`
    /// with its handlers.
    public init(
        _ name: MemberName, signature: Signature, access: Access = .read, emitsChanged: Bool = true,
        get: @escaping @Sendable () -> Value,
        set: (@Sendable (Value, _ sender: String) throws -> Void)? = nil
    ) {
        self.init(
            PropertySpec(name, signature, access: access, emitsChanged: emitsChanged), get: get, set: set)
    }

    /// The spec's fields, for the code that dispatches Get, Set and GetAll.
    public var name: MemberName { spec.name }
    public var signature: Signature { spec.signature }
    public var access: Access { spec.access }
    public var emitsChanged: Bool { spec.emitsChanged }
}

/// One signal of an interface table (for introspection; emit with `Connection.emit`).
public struct SignalSpec: Sendable {
    public let name: MemberName
    public let arguments: [Argument]
    public init(_ name: MemberName, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An interface exported on an object: the single table from which calls are dispatched and
/// introspection XML is generated.
public struct Interface: Sendable {
    public let name: InterfaceName
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [SignalSpec]
    /// Who may use `org.freedesktop.DBus.Properties` (Get, GetAll, Set) on this interface:
    /// called on the loop with the caller's unique name before any property is read or
    /// written; what it throws becomes the error reply (and nothing is read). Nil: anyone.
    public let propertyAccess: (@Sendable (_ sender: String) throws -> Void)?
    let methodsByName: [MemberName: Method]
    let propertiesByName: [String: Property]

    /// Duplicate member names are a programmer error (precondition).
    public init(
        _ name: InterfaceName, methods: [Method] = [], properties: [Property] = [], signals: [SignalSpec] = [],
        propertyAccess: (@Sendable (_ sender: String) throws -> Void)? = nil
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.propertyAccess = propertyAccess
        methodsByName = Dictionary(methods.map { ($0.name, $0) }) { first, _ in
            preconditionFailure("duplicate method \(first.name) in \(name)")
        }
        propertiesByName = Dictionary(properties.map { ($0.name.rawValue, $0) }) { first, _ in
            preconditionFailure("duplicate property \(first.name) in \(name)")
        }
    }
}
