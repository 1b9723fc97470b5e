// One method of the wire contract (name, named in/out arguments); how a declared property is exported.
import DBus

/// A method as API.md documents it, without behaviour: the service turns it into an exported
/// `Method` with a handler, a client into a `MethodCall`. One value serves both, so the
/// signatures the broker checks are the ones its callers send.
public struct MethodSignature: Sendable {
    public let interface: InterfaceName
    public let name: MemberName
    public let inArguments: [Argument]
    public let outArguments: [Argument]
    /// The method changes nothing: the service may answer it ahead of other callers' queued
    /// calls when the bus is busy (`DBus.Method.readOnly`).
    public let readOnly: Bool

    public init(
        _ interface: InterfaceName, _ name: MemberName, in inArguments: [Argument] = [],
        out outArguments: [Argument] = [], readOnly: Bool = false
    ) {
        self.interface = interface
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.readOnly = readOnly
    }

    /// The exported method: this signature answered by `handler`.
    public func method(_ handler: MethodHandler) -> Method {
        Method(name, in: inArguments, out: outArguments, readOnly: readOnly, handler: handler)
    }

    /// A call of this method on `destination` at `path`.
    public func call(_ destination: BusName?, path: ObjectPath, body: [Value] = []) -> MethodCall {
        MethodCall(destination: destination, path: path, interface: interface, member: name, body: body)
    }
}

/// A property as API.md documents it is a `PropertySpec` (name, type, whether changes are
/// announced; every property of the contract is read-only).
extension PropertySpec {
    /// The exported, read-only property answered by `get` (on the loop).
    public func property(get: @escaping @Sendable () -> Value) -> Property {
        Property(self, get: get)
    }
}
