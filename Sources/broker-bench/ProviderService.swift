// The bench's dynamic provider: a DBus-module connection serving Provider1.Perform with an immediate reply.
import DBus
import Foundation
import TestSupport

/// Serves `org.activitybroker.Provider1.Perform` at `/org/bench/Provider` on its own connection
/// (its own loop thread), answering `("completed", {})` at once, and registers
/// `Workload.providerActivity` with the broker.
///
/// Also serves `org.bench.Echo1.Records(u count) → aa{sv}`: a copy of the broker's own
/// `ListActivities` answer with that many records, encoded by the same DBus module on each
/// call: the floor for a reply of that size, without the broker's work.
final class ProviderService {
    static let path: ObjectPath = "/org/bench/Provider"
    static let echoInterface = "org.bench.Echo1"
    let connection: Connection
    private let echoes = Locked<[UInt32: Value]>([:])

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
                    ]),
                Interface(
                    InterfaceName(Self.echoInterface),
                    methods: [
                        Method(
                            "Records", in: [Argument("count", "u")], out: [Argument("records", "aa{sv}")],
                            handler: .immediate { [echoes] call in
                                [echoes.value[call.body[0].uint32 ?? 0] ?? .array(element: "a{sv}", [])]
                            })
                    ]),
            ])
    }

    /// Keeps the broker's `ListActivities` answer for `url` as the echo of its record count.
    func captureEcho(url: String) throws -> Int {
        let call = MethodCall(
            destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
            interface: "org.activitybroker.Broker1", member: "ListActivities",
            body: [.vardict(["url": .string(url)]), .vardict([:])])
        let reply = try wait(call)
        guard let first = reply.first, case .array(_, let records) = first else { return 0 }
        echoes.withLock { $0[UInt32(records.count)] = first }
        return records.count
    }

    private func wait(_ call: MethodCall) throws -> [Value] {
        let result = Locked<Result<[Value], DBusError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        connection.call(call) { reply in
            result.value = reply
            done.signal()
        }
        done.wait()
        return try result.value!.get()
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
        _ = try wait(call)
    }
}
