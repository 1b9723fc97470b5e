// The caller's files are read off the loop: a read that never returns costs the sheet its app name, not the broker its loop.
import DBus
import Dispatch
import TestSupport
import Testing

@testable import ActivityBroker

/// A caller in a mount namespace of its own decides what `/proc/<pid>/root/.flatpak-info` is;
/// a FUSE file there can block whoever opens or reads it for as long as its server likes. Read
/// on the loop, that stopped the whole broker (a review found it). The reader here blocks the
/// same way, until the test lets it go.
@Suite(.serialized) struct CallerApplicationReadTests {
    /// A reader that blocks until `release()`, as a FUSE file whose server never answers.
    final class HangingReader: Sendable {
        private let gate = DispatchSemaphore(value: 0)
        var read: @Sendable (UInt32) -> String {
            { [gate] _ in
                gate.wait()
                gate.signal()
                return "org.example.Late"
            }
        }

        /// Lets every blocked read (and every later one) return, then waits until none holds a
        /// place (each is freed on the loop after its answer was offered).
        func release() async throws {
            gate.signal()
            try await waitUntil("the blocked readers to finish") { CallerApplication.readsUnderWay == 0 }
        }
    }

    static func connection() async throws -> (TestBus, Connection) {
        let bus = try await offPool { try TestBus() }
        return (bus, try await offPool { try bus.connect() })
    }

    @Test func aReadThatNeverReturnsGivesNoIdAndLeavesTheLoopFree() async throws {
        let (bus, connection) = try await Self.connection()
        defer {
            connection.close()
            bus.stopInBackground()
        }
        let reader = HangingReader()
        let ids = Inbox<String>()
        let started = ContinuousClock.now
        CallerApplication.lookUp(connection.uniqueName, on: connection, reader: reader.read) { ids.put($0) }
        try await waitUntil("the read to start") { CallerApplication.readsUnderWay == 1 }
        // The loop still runs while the read hangs.
        let loopTurns = Inbox<Bool>()
        connection.queue.async { loopTurns.put(true) }
        #expect(try await loopTurns.next("a turn of the loop during the read"))
        #expect(try await ids.next("the id at the read's deadline") == "")
        #expect(ContinuousClock.now - started >= CallerApplication.readDeadline)
        // Once the place is free the late answer has been offered (it frees its place on the
        // loop after): it changes nothing, the completion ran once.
        try await reader.release()
        #expect(ids.items == [""])
    }

    @Test func readsPastTheBoundGiveNoIdAtOnce() async throws {
        let (bus, connection) = try await Self.connection()
        defer {
            connection.close()
            bus.stopInBackground()
        }
        let reader = HangingReader()
        let ids = Inbox<String>()
        for _ in 0..<CallerApplication.maximumReading {
            CallerApplication.lookUp(connection.uniqueName, on: connection, reader: reader.read) {
                ids.put($0)
            }
        }
        try await waitUntil("every place taken") {
            CallerApplication.readsUnderWay == CallerApplication.maximumReading
        }
        // Its own inbox: the hanging lookups' deadlines answer "" too.
        let pastTheBound = Inbox<String>()
        let started = ContinuousClock.now
        CallerApplication.lookUp(connection.uniqueName, on: connection, reader: reader.read) {
            pastTheBound.put($0)
        }
        #expect(try await pastTheBound.next("the lookup past the bound") == "")
        #expect(ContinuousClock.now - started < CallerApplication.readDeadline)
        #expect(
            CallerApplication.readsUnderWay == CallerApplication.maximumReading,
            "the hung reads keep their places")
        try await reader.release()
        #expect(ids.items.count == CallerApplication.maximumReading)
    }

    @Test func aReadInTimeGivesItsId() async throws {
        let (bus, connection) = try await Self.connection()
        defer {
            connection.close()
            bus.stopInBackground()
        }
        let ids = Inbox<String>()
        CallerApplication.lookUp(connection.uniqueName, on: connection, reader: { _ in "org.example.Quick" })
        {
            ids.put($0)
        }
        #expect(try await ids.next("the id") == "org.example.Quick")
    }
}
