// The bench's dynamic provider: a DBus-module connection serving Provider1.Perform with an immediate reply.
import ActivityBrokerInterface
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
    /// `org.bench.Echo1.Records(u count) → aa{sv}`.
    static let records = MethodSignature(
        "org.bench.Echo1", "Records", in: [Argument("count", "u")], out: [Argument("records", "aa{sv}")])
    let connection: Connection
    private let echoes = Locked<[UInt32: Value]>([:])

    init(address: String) throws {
        connection = try Connection(bus: .address(address))
        try connection.export(
            Self.path,
            interfaces: [
                Interface(
                    Provider1.interface,
                    methods: [
                        Provider1.perform.method(
                            .immediate { _ in [.string(JobState.completed.rawValue), .vardict([:])] })
                    ]),
                Interface(
                    Self.records.interface,
                    methods: [
                        Self.records.method(
                            .immediate { [echoes] call in
                                [echoes.value[call.body[0].uint32 ?? 0] ?? .array(element: "a{sv}", [])]
                            })
                    ]),
            ])
    }

    /// Keeps the broker's `ListActivities` answer for `url` as the echo of its record count.
    func captureEcho(url: String) throws -> Int {
        let reply = try wait(
            Broker1.call(Broker1.listActivities, [.vardict([ItemKey.url: .string(url)]), .vardict([:])]))
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
            RegistrationKey.id: .string(Workload.providerActivity),
            RegistrationKey.name: .string("Bench provider"),
            RegistrationKey.category: .string("share"),
            RegistrationKey.match: .vardict([RegistrationKey.hosts: .stringArray(["provider.example.net"])]),
            RegistrationKey.objectPath: .objectPath(Self.path),
        ]
        _ = try wait(Broker1.call(Broker1.registerActivity, [.vardict(record)]))
    }
}
