// A recording org.activitybroker.impl.Sheet1 service for the Share tests (broker, client, share): the test decides each answer.
import ActivityBrokerInterface
import DBus
import Foundation

/// A sheet service on the test bus: owns `org.activitybroker.Sheet`, exports `impl.Sheet1`
/// and records every call. `Show` is not answered until the test says how (`choose`,
/// `dismiss`), or ever (a hanging sheet); `close()` drops off the bus mid-choice (a crash).
public final class RecordingSheet: Sendable {
    /// One `Show` call, with the responder the test answers through.
    public struct Show: Sendable {
        public let sender: String
        public let handle: ObjectPath
        public let appID: String
        public let parentWindow: String
        public let items: [String: Value]
        public let activities: [[String: Value]]
        public let options: [String: Value]
        public let responder: Responder

        public var activityIDs: [String] { activities.compactMap { $0["id"]?.string } }

        /// Answers `0` (chosen) with `id` and an activation token.
        public func choose(_ id: String, token: String = "sheet-token-1") {
            responder.reply([
                .uint32(Sheet1.Response.chosen.rawValue),
                .vardict([
                    Sheet1.ShowResultKey.activityID: .string(id), Sheet1.ShowResultKey.activationToken: .string(token),
                ]),
            ])
        }

        /// Answers `2` (failed: the sheet could not show itself) with `message`.
        public func fail(_ message: String) {
            responder.reply([
                .uint32(Sheet1.Response.failed.rawValue), .vardict([ResultKey.message: .string(message)]),
            ])
        }

        /// Answers `1` (cancelled: the user dismissed the sheet).
        public func dismiss() {
            responder.reply([.uint32(Sheet1.Response.cancelled.rawValue), .vardict([:])])
        }
    }

    /// `Update` or `Close`, as received.
    public struct Call: Sendable, Equatable {
        public init(member: String, handle: ObjectPath, state: String = "", message: String = "") {
            self.member = member
            self.handle = handle
            self.state = state
            self.message = message
        }

        public let member: String
        public let handle: ObjectPath
        /// `Update`'s state and message; empty for `Close`.
        public let state: String
        public let message: String
    }

    public let connection: Connection
    public let shows = Inbox<Show>()
    public let calls = Inbox<Call>()

    /// Connects to `bus`, exports the sheet and takes its well-known name.
    public init(bus: TestBus) async throws {
        connection = try bus.connect()
        let shows = shows
        let calls = calls
        try connection.export(
            Sheet1.objectPath,
            interfaces: [
                Interface(
                    Sheet1.interface,
                    methods: [
                        Sheet1.show.method(
                            .deferred { call, responder in
                                shows.put(
                                    Show(
                                        sender: call.sender, handle: call.body[0].objectPath ?? "/",
                                        appID: call.body[1].string ?? "", parentWindow: call.body[2].string ?? "",
                                        items: call.body[3].vardict ?? [:],
                                        activities: (call.body[4].array ?? []).compactMap(\.vardict),
                                        options: call.body[5].vardict ?? [:], responder: responder))
                            }),
                        Sheet1.update.method(
                            .immediate { call in
                                calls.put(
                                    Call(
                                        member: "Update", handle: call.body[0].objectPath ?? "/",
                                        state: call.body[1].string ?? "", message: call.body[2].string ?? ""))
                                return []
                            }),
                        Sheet1.close.method(
                            .immediate { call in
                                calls.put(Call(member: "Close", handle: call.body[0].objectPath ?? "/"))
                                return []
                            }),
                    ])
            ])
        _ = try await connection.requestName(Sheet1.busName, flags: [.doNotQueue])
    }

    deinit { connection.close() }

    /// Drops off the bus without answering (a sheet that crashed).
    public func close() { connection.close() }

    /// Waits until `Update`/`Close` calls for `handle` are exactly `expected` (in order).
    public func waitForCalls(_ expected: [Call], deadline: Deadline = .standard) async throws {
        let handle = expected.first?.handle
        try await waitUntil("the sheet calls \(expected)", deadline: deadline) {
            calls.items.filter { $0.handle == handle } == expected
        }
    }
}
