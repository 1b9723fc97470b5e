// OpenSessions: the UI services' handles, shared by the sheet and the browser window.
import DBus
import Testing
import UIServiceSupport

@MainActor
private final class RecordingSession: HandleSession {
    let handle: ObjectPath
    private let onClosed: (RecordingSession) -> Void
    private(set) var closes = 0

    init(_ handle: ObjectPath, onClosed: @escaping (RecordingSession) -> Void) {
        self.handle = handle
        self.onClosed = onClosed
    }

    func close() {
        closes += 1
        onClosed(self)
    }
}

@MainActor
@Suite struct OpenSessionsTests {
    @Test func closingAHandleRemovesOnlyItsSession() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) { true }
        sessions.open("/a", openedBy: ":1.1") { RecordingSession("/a", onClosed: $0) }
        sessions.open("/b", openedBy: ":1.1") { RecordingSession("/b", onClosed: $0) }
        #expect(sessions.count == 2)
        sessions.close("/a")
        #expect(sessions.count == 1)
        #expect(sessions["/a"] == nil)
        #expect(sessions["/b"] != nil)
    }

    @Test func closingAHandleWithNothingOpenDoesNothing() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) { true }
        sessions.open("/a", openedBy: ":1.1") { RecordingSession("/a", onClosed: $0) }
        sessions.close("/nothing")
        #expect(sessions.count == 1)
    }

    @Test func closeAllClosesEachOfTheBrokersOnce() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) { true }
        var made: [RecordingSession] = []
        for path in ["/a", "/b", "/c"] as [ObjectPath] {
            sessions.open(path, openedBy: ":1.1") { onClosed in
                let session = RecordingSession(path, onClosed: onClosed)
                made.append(session)
                return session
            }
        }
        sessions.closeAll(openedBy: ":1.1")
        #expect(sessions.count == 0)
        #expect(made.map(\.closes) == [1, 1, 1])
    }

    @Test func aLateCloseOfAReplacedSessionKeepsTheNewOne() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) { true }
        var first: RecordingSession?
        sessions.open("/a", openedBy: ":1.1") { onClosed in
            let session = RecordingSession("/a", onClosed: onClosed)
            first = session
            return session
        }
        sessions.open("/a", openedBy: ":1.1") { RecordingSession("/a", onClosed: $0) }
        first?.close()
        #expect(sessions.count == 1)
        #expect(sessions["/a"] !== first)
    }

    /// A broker replaced with `--replace` leaves after its successor opened windows: only its
    /// own close (before, every window did).
    @Test func aLeavingBrokerClosesOnlyWhatItOpened() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) { true }
        var made: [ObjectPath: RecordingSession] = [:]
        for (path, broker) in [("/old", ":1.1"), ("/new", ":1.2"), ("/old2", ":1.1")] as [(ObjectPath, String)] {
            sessions.open(path, openedBy: broker) { onClosed in
                let session = RecordingSession(path, onClosed: onClosed)
                made[path] = session
                return session
            }
        }
        sessions.closeAll(openedBy: ":1.1")
        #expect(sessions.count == 1)
        #expect(sessions["/new"] != nil)
        #expect(made["/old"]?.closes == 1 && made["/old2"]?.closes == 1 && made["/new"]?.closes == 0)
        // The handle's opener is forgotten with it: a new session there belongs to its own broker.
        sessions.open("/old", openedBy: ":1.2") { RecordingSession("/old", onClosed: $0) }
        sessions.closeAll(openedBy: ":1.1")
        #expect(sessions.count == 2)
    }

    /// An idle exit that finds a call on its way in (`BrokerCallers.exitIfIdle` answers false)
    /// waits another round instead of giving up for good.
    @Test func anIdleExitPutOffByACallOnItsWayTriesAgain() async throws {
        var asked = 0
        let sessions = OpenSessions<RecordingSession>(idleExit: .milliseconds(20)) {
            asked += 1
            return asked >= 3
        }
        // Polled with a deadline (10 s): the timers run on the main queue, this test's actor.
        let deadline = ContinuousClock.now + .seconds(10)
        while asked < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(asked == 3, "put off twice, then tried again and gone ahead")
        withExtendedLifetime(sessions) {}
    }
}
