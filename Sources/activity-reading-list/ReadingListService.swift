// ReadingListService: org.activitybroker.Provider1 for the one Reading List activity, answering the broker only.
import ActivityBrokerInterface
import DBus
import Foundation

/// Serves `Perform` for `org.activitybroker.reading-list` on the provider's connection.
///
/// Only the broker may call it: a call whose sender is not the current owner of
/// `org.activitybroker.Broker1` gets `AccessDenied`, so no other client can write to the
/// list past the broker's checks (API.md: providers trust the broker, not the bus). The
/// owner is asked per call (`GetNameOwner`), not cached: the broker may restart, and a cache
/// filled at start could miss the instance that activated us. The URL is checked again here
/// (`ReadingList.checkedURL`) and the list is bounded (`ReadingList.maxEntries`).
///
/// `ActivityProvider` makes the same caller check; the reading list exports `Provider1`
/// itself so that a refused URL or a full list is a D-Bus error the broker passes on
/// (`InvalidArgument`, `LimitExceeded`), where a handler's error would be a failed outcome.
final class ReadingListService: Sendable {
    static let activityID = "org.activitybroker.reading-list"

    let connection: Connection
    let objectPath: ObjectPath
    private let list: ReadingList
    /// Handlers run concurrently; each read-modify-write of the file must not interleave with another.
    private let lock = NSLock()
    private let log: @Sendable (String) -> Void

    init(connection: Connection, objectPath: ObjectPath, list: ReadingList, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.objectPath = objectPath
        self.list = list
        self.log = log
    }

    /// Exports the object; throws the export's `DBusError`.
    func start() throws(DBusError) {
        let interface = Interface(
            Provider1.interface,
            methods: [Provider1.perform.method(.deferred { [self] call, responder in perform(call, responder) })])
        try connection.export(objectPath, interfaces: [interface])
    }

    /// On the loop: checks the caller, then adds off the loop (the file is fsynced).
    private func perform(_ call: MethodInvocation, _ responder: Responder) {
        let sender = call.sender
        let ownerQuery = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", body: [.string(Broker1.busName.rawValue)])
        connection.call(ownerQuery, timeout: .seconds(5), autoStart: false) { [self] result in
            // No owner (the broker is gone) or no answer: nobody is the broker.
            guard case .success(let reply) = result, let owner = reply.first?.string, owner == sender else {
                return responder.fail(ReadingListError.notTheBroker(sender))
            }
            let id = call.body[0].string ?? ""
            guard id == Self.activityID else { return responder.fail(ReadingListError.unknownActivity(id)) }
            let items = call.body[1].vardict ?? [:]
            let url: String
            do {
                url = try ReadingList.checkedURL(items[ItemKey.url]?.string ?? "")
            } catch {
                return responder.fail(error)
            }
            let title = items[ItemKey.title]?.string
            Task { [self] in
                do {
                    let count = try lock.withLock {
                        try list.add(url: url, title: title) { log("the list was unreadable; kept it as \($0)") }
                    }
                    responder.reply([.string(JobState.completed.rawValue), .vardict(["count": .int64(Int64(count))])])
                } catch let error as ReadingListError {
                    responder.fail(error)
                } catch {
                    responder.reply([
                        .string(JobState.failed.rawValue),
                        .vardict([
                            ResultKey.error: .string(BrokerErrorName.providerFailed.rawValue),
                            ResultKey.message: .string("\(error)"),
                        ]),
                    ])
                }
            }
        }
    }
}
