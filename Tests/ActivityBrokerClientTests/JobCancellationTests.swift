// perform's cancellation against a stand-in broker that stays on the bus but never sends Finished.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct JobCancellationTests {
    /// Owns the broker's name on a private bus, answers `Perform` with a job and records that
    /// job's `Cancel`, but never sends `Finished`: a broker that is stuck, not gone. With
    /// `answersCancel: false` the `Cancel` is never answered either (its responders are kept).
    final class SilentBroker: Sendable {
        static let job: ObjectPath = "/org/activitybroker/Broker1/job/silent"
        let connection: Connection
        let cancels = Inbox<ObjectPath>()
        let unanswered = Inbox<Responder>()

        init(bus: TestBus, answersCancel: Bool) async throws {
            connection = try bus.connect()
            let (cancels, unanswered) = (cancels, unanswered)
            try connection.export(
                Broker1.objectPath,
                interfaces: [
                    Interface(
                        Broker1.interface,
                        methods: [Broker1.perform.method(.immediate { _ in [.objectPath(Self.job)] })])
                ])
            try connection.export(
                Self.job,
                interfaces: [
                    Interface(
                        Job1.interface,
                        methods: [
                            Job1.cancel.method(
                                .deferred { call, responder in
                                    cancels.put(call.path)
                                    if answersCancel { responder.reply() } else { unanswered.put(responder) }
                                })
                        ])
                ])
            _ = try await connection.requestName(Broker1.busName)
        }
    }

    /// Regression: after the task was cancelled, `perform` waited forever when the broker
    /// answered (or ignored) `Cancel` but sent no `Finished`, though its documentation promises
    /// the `cancelled` outcome.
    @Test(arguments: [true, false])
    func cancellingReturnsCancelledWhenTheBrokerNeverSendsFinished(answersCancel: Bool) async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let broker = try await SilentBroker(bus: bus, answersCancel: answersCancel)
        let client = BrokerProxy(connection: try bus.connect(), address: bus.address)
        let jobs = Inbox<ObjectPath>()
        let perform = Task {
            try await client.perform("test.silent", items: SharedItems(url: "https://example.org")) {
                jobs.put($0)
            }
        }
        let job = try await jobs.next("the job path")
        perform.cancel()
        #expect(try await broker.cancels.next("the job's Cancel") == job)
        let ended = Inbox<ActivityOutcome>()
        let waiter = Task { if let outcome = try? await perform.value { ended.put(outcome) } }
        defer { waiter.cancel() }
        #expect(try await ended.next("perform to return after Cancel") == .cancelled)
    }
}
