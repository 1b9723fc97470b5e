// Shared helpers of the DBus tests: a service/client pair on a private bus, echo tables.
import DBus
import Foundation
import TestSupport

/// A private bus with a service connection and a client connection.
final class BusPair: @unchecked Sendable {
    let bus: TestBus
    let service: Connection
    let client: Connection

    init(serviceDirectory: String? = nil) throws {
        bus = try TestBus(serviceDirectory: serviceDirectory)
        service = try bus.connect()
        client = try bus.connect()
    }

    /// `init` on a thread of its own (`offPool`), not on a concurrency-pool thread.
    static func start(serviceDirectory: String? = nil) async throws -> BusPair {
        try await offPool { try BusPair(serviceDirectory: serviceDirectory) }
    }

    deinit {
        client.close()
        service.close()
        bus.stopInBackground()
    }

    /// A call from the client to the service's unique name.
    func call(
        _ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ body: [Value] = [],
        timeout: Duration = .seconds(10)
    ) async throws(DBusError) -> [Value] {
        try await client.call(
            MethodCall(
                destination: try BusName(service.uniqueName), path: path, interface: interface, member: member,
                body: body), timeout: timeout)
    }

    /// The error a call fails with (nil if it succeeds).
    func error(
        _ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ body: [Value] = []
    ) async -> DBusError? {
        do {
            _ = try await call(path, interface, member, body)
            return nil
        } catch {
            return error
        }
    }

    /// A Peer.Ping round trip from `connection` to the service: everything the service sent to
    /// `connection` before the reply has been dispatched by the time this returns.
    func settle(_ connection: Connection) async throws {
        _ = try await connection.call(
            MethodCall(
                destination: try BusName(service.uniqueName), path: "/", interface: .peer, member: "Ping"))
    }
}

/// An interface with one echo method per signature: `Echo<n>` takes and returns `signatures[n]`.
func echoInterface(_ signatures: [Signature]) -> Interface {
    Interface(
        "org.example.Echo",
        methods: signatures.enumerated().map { index, signature in
            Method(
                try! MemberName("Echo\(index)"), in: [Argument("value", signature)], out: [Argument("value", signature)],
                handler: .immediate { invocation in invocation.body })
        })
}
