// A recording org.activitybroker.impl.Browser1 service for the Browse tests: records Open/Close and sends the test's Events.
import ActivityBrokerInterface
import DBus
import Foundation

/// A browser service on the test bus: owns `org.activitybroker.Browser`, exports
/// `impl.Browser1` and records every call. It opens no window: `Open` is answered at once (or
/// failed with `openError`), and the test plays the window by sending `Event`s to the broker
/// (`send`). `Close` is recorded and, like the real service, answered with a `Finished` event
/// for a window not yet finished — or, with `holdingCloses`, held unanswered until
/// `answerCloses()` (a window slow to close). `close()` drops off the bus (a crash).
public final class RecordingBrowser: Sendable {
    /// One `Open` call.
    public struct Open: Sendable {
        public let sender: String
        public let handle: ObjectPath
        public let appID: String
        public let parentWindow: String
        public let url: String
        public let options: [String: Value]
    }

    public let connection: Connection
    public let opens = Inbox<Open>()
    /// The handles of `Close` calls, in order.
    public let closes = Inbox<ObjectPath>()
    /// When set, `Open` fails with this error name.
    public let openError = Locked<String?>(nil)
    private let finished = Locked<Set<ObjectPath>>([])
    /// `Close` calls held unanswered (`holdingCloses`).
    private let held = Locked<[Responder]>([])

    /// Connects to `bus`, exports the service and takes its well-known name. `holdingCloses`:
    /// every `Close` is recorded and left unanswered until `answerCloses()`.
    public init(bus: TestBus, holdingCloses: Bool = false) async throws {
        connection = try bus.connect()
        let opens = opens
        let closes = closes
        let openError = openError
        let finished = finished
        let held = held
        let connection = connection
        try connection.export(
            Browser1.objectPath,
            interfaces: [
                Interface(
                    Browser1.interface,
                    methods: [
                        Browser1.open.method(
                            .immediate { call in
                                if let name = openError.value {
                                    throw DBusError(
                                        name: name, message: "the recording browser was told to fail Open")
                                }
                                opens.put(
                                    Open(
                                        sender: call.sender, handle: call.body[0].objectPath ?? "/",
                                        appID: call.body[1].string ?? "",
                                        parentWindow: call.body[2].string ?? "",
                                        url: call.body[3].string ?? "", options: call.body[4].vardict ?? [:]))
                                return []
                            }),
                        Browser1.close.method(
                            .deferred { call, responder in
                                let handle = call.body[0].objectPath ?? "/"
                                closes.put(handle)
                                if holdingCloses { return held.withLock { $0.append(responder) } }
                                let first = finished.withLock { $0.insert(handle).inserted }
                                if first {
                                    try? Self.emit(
                                        on: connection, to: call.sender, handle: handle,
                                        name: Browser1.EventName.finished, details: [:])
                                }
                                responder.reply()
                            }),
                    ],
                    signals: [Browser1.event.spec])
            ])
        _ = try await connection.requestName(Browser1.busName, flags: [.doNotQueue])
    }

    deinit { connection.close() }

    /// Answers every `Close` held so far (`holdingCloses`).
    public func answerCloses() {
        for responder in held.withLock({ held in
            defer { held = [] }
            return held
        }) {
            responder.reply()
        }
    }

    /// Drops off the bus (a browser that crashed or quit).
    public func close() { connection.close() }

    /// Sends `Event(handle, name, details)` unicast to `broker` (default: whoever called `Open`
    /// for `handle`), as the window would.
    public func send(
        _ name: String, details: [String: Value] = [:], for open: Open, to broker: String? = nil
    ) throws {
        if name == Browser1.EventName.finished { finished.withLock { _ = $0.insert(open.handle) } }
        try Self.emit(
            on: connection, to: broker ?? open.sender, handle: open.handle, name: name, details: details)
    }

    /// The same signal sent from another connection (an impostor).
    public static func emit(
        on connection: Connection, to broker: String, handle: ObjectPath, name: String,
        details: [String: Value]
    ) throws {
        try connection.emit(
            Browser1.event.signal(
                at: Browser1.objectPath, [.objectPath(handle), .string(name), .vardict(details)],
                to: try BusName(broker)))
    }
}
