// Signals: the outgoing description and what a match handler receives.

/// A signal to send with `Connection.emit`.
public struct Signal: Sendable {
    public var path: ObjectPath
    public var interface: InterfaceName
    public var member: MemberName
    public var body: [Value]
    /// Nil broadcasts (to every connection with a matching rule); set, unicasts to that name only.
    public var destination: BusName?

    public init(path: ObjectPath, interface: InterfaceName, member: MemberName, body: [Value] = [], destination: BusName? = nil) {
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
        self.destination = destination
    }
}

/// A signal received by this connection, passed to `addMatch` handlers on the loop.
public struct IncomingSignal: Sendable {
    /// The sender's unique name (or `org.freedesktop.DBus` for the bus).
    public let sender: String
    public let path: ObjectPath
    public let interface: String
    public let member: String
    public let body: [Value]
    /// Set for a unicast signal: our unique name.
    public let destination: String?
}
