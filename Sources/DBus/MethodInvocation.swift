// What a method handler receives: the caller, the target and the checked arguments.

/// One incoming method call, handed to a `MethodHandler` on the loop.
public final class MethodInvocation: @unchecked Sendable {
    /// The caller's unique name.
    public let sender: String
    public let path: ObjectPath
    /// The interface the call was dispatched to (resolved when the caller gave none).
    public let interface: InterfaceName
    public let member: MemberName
    /// Already checked against the method's in-signature.
    public let body: [Value]

    init(sender: String, path: ObjectPath, interface: InterfaceName, member: MemberName, body: [Value]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }
}
