// What every interface of the wire contract has (its name) and how its members are written, once.
import DBus

/// An interface of the wire contract (`Broker1`, `Job1`, `Provider1`, `Session1`, `Sheet1`,
/// `Browser1`): a namespace of its name and the signatures of its members, written with
/// `method` and `signal` in API.md's own notation.
public protocol WireInterface {
    static var interface: InterfaceName { get }
}

extension WireInterface {
    /// A method of this interface: `method("Open", in: "o handle, s url")`.
    static func method(
        _ name: MemberName, in inArguments: ArgumentList = [], out outArguments: ArgumentList = [],
        readOnly: Bool = false
    ) -> MethodSignature {
        MethodSignature(
            interface, name, in: inArguments.arguments, out: outArguments.arguments, readOnly: readOnly)
    }

    /// A signal of this interface: `signal("Event", "o handle, s name, a{sv} details")`.
    static func signal(_ name: MemberName, _ arguments: ArgumentList = []) -> SignalSignature {
        SignalSignature(interface: interface, name: name, arguments: arguments.arguments)
    }
}

/// An interface that a service exports at one object under a well-known name (`Broker1`,
/// `Sheet1`, `Browser1`), so that a call needs nothing but the method and the body.
public protocol ServiceInterface: WireInterface {
    /// The well-known name the service owns.
    static var busName: BusName { get }
    /// The one object the service exports the interface at.
    static var objectPath: ObjectPath { get }
}

extension ServiceInterface {
    /// A call of `method` on the service's object, with `body`.
    public static func call(_ method: MethodSignature, _ body: [Value] = []) -> MethodCall {
        method.call(busName, path: objectPath, body: body)
    }
}

/// An interface whose objects live below the broker's object, one per job or session, each
/// named by a token (`Job1`, `Session1`): `<Broker1 path>/<pathElement>/<token>`.
public protocol TokenObjectInterface: WireInterface {
    /// The path element between the broker's path and the token ("job").
    static var pathElement: String { get }
}

extension TokenObjectInterface {
    /// The parent of every such object's path, `<Broker1 path>/<pathElement>` (no object of its own).
    public static var parentPath: ObjectPath {
        try! ObjectPath(Broker1.objectPath.rawValue + "/" + pathElement)
    }

    /// The path of the object named `token` (letters, digits and `_`), below the broker's object.
    ///
    /// The broker makes the token from 128 random bits, so that no client can guess another
    /// caller's object (API.md §6, §10: a job or session is its caller's business).
    public static func path(token: String) -> ObjectPath {
        Broker1.path(below: pathElement, token: token)
    }
}
