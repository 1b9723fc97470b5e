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
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) {}
        sessions.open("/a") { RecordingSession("/a", onClosed: $0) }
        sessions.open("/b") { RecordingSession("/b", onClosed: $0) }
        #expect(sessions.count == 2)
        sessions.close("/a")
        #expect(sessions.count == 1)
        #expect(sessions["/a"] == nil)
        #expect(sessions["/b"] != nil)
    }

    @Test func closingAHandleWithNothingOpenDoesNothing() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) {}
        sessions.open("/a") { RecordingSession("/a", onClosed: $0) }
        sessions.close("/nothing")
        #expect(sessions.count == 1)
    }

    @Test func closeAllClosesEachOnce() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) {}
        var made: [RecordingSession] = []
        for path in ["/a", "/b", "/c"] as [ObjectPath] {
            sessions.open(path) { onClosed in
                let session = RecordingSession(path, onClosed: onClosed)
                made.append(session)
                return session
            }
        }
        sessions.closeAll()
        #expect(sessions.count == 0)
        #expect(made.map(\.closes) == [1, 1, 1])
    }

    @Test func aLateCloseOfAReplacedSessionKeepsTheNewOne() {
        let sessions = OpenSessions<RecordingSession>(idleExit: nil) {}
        var first: RecordingSession?
        sessions.open("/a") { onClosed in
            let session = RecordingSession("/a", onClosed: onClosed)
            first = session
            return session
        }
        sessions.open("/a") { RecordingSession("/a", onClosed: $0) }
        first?.close()
        #expect(sessions.count == 1)
        #expect(sessions["/a"] !== first)
    }
}
