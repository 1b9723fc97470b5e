// Connections opened while others close in the same process: every fresh connection hears its replies.
import DBus
import Foundation
import Testing
import TestSupport

@Suite struct ConnectionChurnTests {
    /// A closed connection's socket number is free at once, while libdispatch drops the closed
    /// connection's registration for that number later: a connection opened in between used to
    /// join the stale registration and never hear its reply (see `WatchEntry`). Twelve workers
    /// opening, calling and closing in a loop met that within a few hundred connections.
    @Test("Fresh connections opened while others close get every reply (a reused socket number loses nothing)")
    func freshConnectionsHearReplies() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let getID = MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId")
        let lost = Locked<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<12 {
                group.addTask {
                    for round in 0..<200 {
                        // Opening blocks for the bus's Hello reply: 2,400 of them would hold the
                        // concurrency pool's threads, so each opens on a thread of its own.
                        let connection = try await offPool { try bus.connect() }
                        do {
                            _ = try await connection.call(getID, timeout: .seconds(5))
                        } catch {
                            lost.withLock { $0.append("worker \(worker) round \(round): \(error)") }
                        }
                        connection.close()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(lost.value.isEmpty, "\(lost.value.count) calls lost: \(lost.value.prefix(3))")
    }
}
