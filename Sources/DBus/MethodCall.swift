// An outgoing method call, described as a value.

/// A method call to send with `Connection.call`.
public struct MethodCall: Sendable {
    /// The bus name to call; nil on a peer-to-peer connection.
    public var destination: BusName?
    public var path: ObjectPath
    /// Nil lets the callee pick the first interface with this member.
    public var interface: InterfaceName?
    public var member: MemberName
    public var body: [Value]

    public init(destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName, body: [Value] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }

    /// A call to the bus itself (`org.freedesktop.DBus` at `/org/freedesktop/DBus`).
    static func bus(_ member: MemberName, _ body: [Value] = []) -> MethodCall {
        MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: member, body: body)
    }
}
