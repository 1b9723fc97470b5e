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

    /// A private bus and a connection on it, both ended when released.
    final class Bus: Sendable {
        let bus: TestBus
        let connection: Connection

        init() async throws {
            let bus = try await offPool { try TestBus() }
            self.bus = bus
            connection = try await offPool { try bus.connect() }
        }

        deinit {
            connection.close()
            bus.stopInBackground()
        }

        /// `CallerApplication.lookUp` of this connection itself, answering into `ids`.
        func lookUp(with reader: @escaping @Sendable (UInt32) -> String, into ids: Inbox<String>) {
            CallerApplication.lookUp(connection.uniqueName, on: connection, reader: reader) { ids.put($0) }
        }
    }

    @Test func aReadThatNeverReturnsGivesNoIdAndLeavesTheLoopFree() async throws {
        let bus = try await Bus()
        let reader = HangingReader()
        let ids = Inbox<String>()
        let started = ContinuousClock.now
        bus.lookUp(with: reader.read, into: ids)
        try await waitUntil("the read to start") { CallerApplication.readsUnderWay == 1 }
        // The loop still runs while the read hangs.
        let loopTurns = Inbox<Bool>()
        bus.connection.queue.async { loopTurns.put(true) }
        #expect(try await loopTurns.next("a turn of the loop during the read"))
        #expect(try await ids.next("the id at the read's deadline") == "")
        #expect(ContinuousClock.now - started >= CallerApplication.readDeadline)
        // Once the place is free the late answer has been offered (it frees its place on the
        // loop after): it changes nothing, the completion ran once.
        try await reader.release()
        #expect(ids.items == [""])
    }

    @Test func readsPastTheBoundGiveNoIdAtOnce() async throws {
        let bus = try await Bus()
        let reader = HangingReader()
        let ids = Inbox<String>()
        for _ in 0..<CallerApplication.maximumReading { bus.lookUp(with: reader.read, into: ids) }
        try await waitUntil("every place taken") {
            CallerApplication.readsUnderWay == CallerApplication.maximumReading
        }
        // Its own inbox: the hanging lookups' deadlines answer "" too.
        let pastTheBound = Inbox<String>()
        let started = ContinuousClock.now
        bus.lookUp(with: reader.read, into: pastTheBound)
        #expect(try await pastTheBound.next("the lookup past the bound") == "")
        #expect(ContinuousClock.now - started < CallerApplication.readDeadline)
        #expect(
            CallerApplication.readsUnderWay == CallerApplication.maximumReading,
            "the hung reads keep their places")
        try await reader.release()
        #expect(ids.items.count == CallerApplication.maximumReading)
    }

    @Test func aReadInTimeGivesItsId() async throws {
        let bus = try await Bus()
        let ids = Inbox<String>()
        bus.lookUp(with: { _ in "org.example.Quick" }, into: ids)
        #expect(try await ids.next("the id") == "org.example.Quick")
    }
}
