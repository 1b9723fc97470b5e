// The bench's dynamic provider: a DBus-module connection serving Provider1.Perform with an immediate reply.
import DBus
import Foundation
import TestSupport

/// Serves `org.activitybroker.Provider1.Perform` at `/org/bench/Provider` on its own connection
/// (its own loop thread), answering `("completed", {})` at once, and registers
/// `Workload.providerActivity` with the broker.
final class ProviderService {
    static let path: ObjectPath = "/org/bench/Provider"
    let connection: Connection

    init(address: String) throws {
        connection = try Connection(bus: .address(address))
        try connection.export(
            Self.path,
            interfaces: [
                Interface(
                    "org.activitybroker.Provider1",
                    methods: [
                        Method(
                            "Perform",
                            in: [Argument("id", "s"), Argument("items", "a{sv}"), Argument("options", "a{sv}")],
                            out: [Argument("state", "s"), Argument("results", "a{sv}")],
                            handler: .immediate { _ in [.string("completed"), .vardict([:])] })
                    ])
            ])
    }

    deinit { connection.close() }

    /// Registers the provider activity (for `Workload.providerURL`'s host only) and waits for the reply.
    func register() throws {
        let record: [String: Value] = [
            "id": .string(Workload.providerActivity),
            "name": .string("Bench provider"),
            "category": .string("share"),
            "match": .vardict(["hosts": .stringArray(["provider.example.net"])]),
            "object_path": .objectPath(Self.path),
        ]
        let call = MethodCall(
            destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
            interface: "org.activitybroker.Broker1", member: "RegisterActivity", body: [.vardict(record)])
        let result = Locked<Result<[Value], DBusError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        connection.call(call) { reply in
            result.value = reply
            done.signal()
        }
        done.wait()
        if case .failure(let error)? = result.value { throw error }
    }
}
