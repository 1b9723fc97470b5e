// A Provider1 implementation in the test process, on its own bus connection.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// An `org.activitybroker.Provider1` on its own connection that answers each call with what
/// `answer` says for the activity id, and records every call.
final class TestProvider: @unchecked Sendable {
    enum Answer: Sendable {
        case reply(state: String, results: [String: Value])
        case fail(DBusError)
        /// Never replies (the responder is kept so it does not answer Failed when released).
        case hang
    }

    let connection: Connection
    let calls = Inbox<(id: String, items: [String: Value], options: [String: Value])>()
    private let held = Locked<[Responder]>([])

    init(bus: TestBus, path: ObjectPath = "/test/provider", answer: @escaping @Sendable (String) -> Answer)
        throws
    {
        connection = try bus.connect()
        let held = held, calls = calls
        try connection.export(
            path,
            interfaces: [
                Interface(
                    Provider1.interface,
                    methods: [
                        Provider1.perform.method(
                            .deferred { call, responder in
                                let id = call.body[0].string ?? ""
                                calls.put((id, call.body[1].vardict ?? [:], call.body[2].vardict ?? [:]))
                                switch answer(id) {
                                case .reply(let state, let results):
                                    responder.reply([.string(state), .vardict(results)])
                                case .fail(let error): responder.fail(error)
                                case .hang: held.withLock { $0.append(responder) }
                                }
                            })
                    ])
            ])
    }

    deinit { connection.close() }

    /// Answers every call that is hanging so far with `state` (a provider that was too slow).
    func answerHeld(state: String) {
        for responder in held.withLock({ held in
            defer { held = [] }; return held
        }) {
            responder.reply([.string(state), .vardict([:])])
        }
    }
}
