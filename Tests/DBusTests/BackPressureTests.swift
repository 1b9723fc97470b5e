// Back-pressure on a real bus: the loop stops reading at its backlog bound, resumes at half, loses nothing.
@testable import DBus
import Foundation
import Testing
import TestSupport

@Suite struct BackPressureTests {
    @Test("A flood stops being read at the bound (plus at most one read), resumes at half; every call answered")
    func pausesAtBound() async throws {
        let pair = try await BusPair.start()
        let bound = 100
        try pair.service.export("/test/Echo", interfaces: [echoInterface(["s"])])
        let changes = Locked<[Backlog]>([])
        pair.service.onBacklogChange { backlog in changes.withLock { $0.append(backlog) } }
        pair.service.queue.sync {
            pair.service.incomingBound = bound
            pair.service.holdsIncoming = true
        }
        let flood = try BlockingConnection(address: pair.bus.address)
        let call = try EncodedCall(
            MethodCall(
                destination: try BusName(pair.service.uniqueName), path: "/test/Echo", interface: "org.example.Echo",
                member: "Echo0", body: [.string(String(repeating: "x", count: 100))]))
        let count = bound * 10
        for _ in 0..<count { flood.send(call) }
        flood.flush()
        try await waitUntil("reading paused", deadline: .seconds(30)) { changes.value.contains { $0.paused } }
        // Held, nothing is handled: what was read is all that is buffered.
        let held = pair.service.queue.sync { pair.service.incoming.count }
        let paused = changes.value.first { $0.paused }!
        #expect(paused.buffered >= bound && paused.bound == bound)
        // One read of libdbus brings at most about 4 KB, ~20 of these calls, past the bound.
        #expect(held <= bound + 32, "\(held) buffered with a bound of \(bound)")
        pair.service.queue.sync {
            pair.service.holdsIncoming = false
            pair.service.scheduleDispatch()
        }
        var answered = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while answered < count, let message = flood.next(until: deadline) {
            if message.kind == .methodReturn { answered += 1 }
        }
        #expect(answered == count)
        let seen = changes.value
        #expect(seen.contains { !$0.paused && $0.buffered <= bound / 2 })
        #expect(seen.allSatisfy { $0.highWater <= bound + 32 })
    }
}
