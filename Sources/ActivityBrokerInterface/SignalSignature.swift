// The signature of one signal of the wire contract: its interface, name and named arguments.
import DBus

/// A signal as API.md documents it, without a body: the service sends it with
/// `signal(at:_:to:)` and lists its `spec` in the exported interface, a client subscribes with
/// `rule`. One value serves both, like `MethodSignature`, so the names a client matches are the
/// ones the service sends and no call site spells the interface and member pair again.
/// Made by `WireInterface.signal`, so the compiler's memberwise initializer serves.
public struct SignalSignature: Sendable {
    /// The interface that declares the signal (API.md's section for it).
    public let interface: InterfaceName
    /// The signal's member name.
    public let name: MemberName
    /// The body's arguments, named as API.md names them (introspection shows the names).
    public let arguments: [Argument]

    /// The signal as an exported interface lists it (introspection).
    public var spec: SignalSpec { SignalSpec(name, arguments: arguments) }

    /// The signal sent from the object at `path` with `body`: broadcast, or unicast to `destination`.
    public func signal(at path: ObjectPath, _ body: [Value] = [], to destination: BusName? = nil) -> Signal {
        Signal(path: path, interface: interface, member: name, body: body, destination: destination)
    }

    /// A subscription to this signal, from `sender` and at `path` when given.
    public func rule(sender: String? = nil, path: ObjectPath? = nil) -> MatchRule {
        MatchRule(sender: sender, interface: interface, member: name, path: path)
    }
}
