// ReadingListService: org.activitybroker.Provider1 for the one Reading List activity, answering the broker only.
import ActivityBrokerInterface
import DBus
import Foundation
import UIServiceSupport

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
///
/// Each `Perform` counts in `quietExit` from its arrival until it is answered, and `answered`
/// runs after each answer (the idle wait starts again): the idle exit never ends the process
/// under a call, though the add runs off the loop where `Connection.whenQuiet` cannot see it.
final class ReadingListService: Sendable {
    static let activityID = "org.activitybroker.reading-list"

    let connection: Connection
    let objectPath: ObjectPath
    private let list: ReadingList
    /// Handlers run concurrently; each read-modify-write of the file must not interleave with another.
    private let lock = NSLock()
    private let log: @Sendable (String) -> Void
    private let quietExit: QuietExit
    private let answered: @Sendable () -> Void

    init(
        connection: Connection, objectPath: ObjectPath, list: ReadingList, quietExit: QuietExit,
        log: @escaping @Sendable (String) -> Void, answered: @escaping @Sendable () -> Void
    ) {
        self.connection = connection
        self.objectPath = objectPath
        self.list = list
        self.quietExit = quietExit
        self.log = log
        self.answered = answered
    }

    /// Exports the object; throws the export's `DBusError`.
    func start() throws(DBusError) {
        let interface = Interface(
            Provider1.interface,
            methods: [
                Provider1.perform.method(.deferred { [self] call, responder in counted(call, responder) })
            ])
        try connection.export(objectPath, interfaces: [interface])
    }

    /// On the loop: `perform`, counted in `quietExit` from here until its answer was sent.
    private func counted(_ call: MethodInvocation, _ responder: Responder) {
        quietExit.began()
        perform(call) { [self] answer in
            answer(responder)
            quietExit.ended()
            answered()
        }
    }

    /// On the loop: checks the caller, then adds off the loop (the file is fsynced); every path
    /// ends in one call of `finish` with what answers the call.
    private func perform(
        _ call: MethodInvocation, finish: @escaping @Sendable (_ answer: (Responder) -> Void) -> Void
    ) {
        let sender = call.sender
        let ownerQuery = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", body: [.string(Broker1.busName.rawValue)])
        connection.call(ownerQuery, timeout: .seconds(5), autoStart: false) { [self] result in
            // No owner (the broker is gone) or no answer: nobody is the broker.
            guard case .success(let reply) = result, let owner = reply.first?.string, owner == sender else {
                return finish { $0.fail(ReadingListError.notTheBroker(sender)) }
            }
            let id = call.body[0].string ?? ""
            guard id == Self.activityID else {
                return finish { $0.fail(ReadingListError.unknownActivity(id)) }
            }
            let items = call.body[1].vardict ?? [:]
            let url: String
            do {
                url = try ReadingList.checkedURL(items[ItemKey.url]?.string ?? "")
            } catch {
                return finish { $0.fail(error) }
            }
            let title = items[ItemKey.title]?.string
            Task { [self] in
                do {
                    let count = try lock.withLock {
                        try list.add(url: url, title: title) { log("the list was unreadable; kept it as \($0)") }
                    }
                    finish {
                        $0.reply([
                            .string(JobState.completed.rawValue), .vardict(["count": .int64(Int64(count))]),
                        ])
                    }
                } catch let error as ReadingListError {
                    finish { $0.fail(error) }
                } catch {
                    finish {
                        $0.reply([
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
}
