// Connections opened while others close in the same process: every fresh connection hears its replies.
@testable import DBus
import CDBus
import Glibc
import Foundation
import Testing
import TestSupport

@Suite struct ConnectionChurnTests {
    @Test("Fresh connections opened while others close get every reply (no read source lost to a reused fd)")
    func freshConnectionsHearReplies() async throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let getID = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId")
        let lost = Locked<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    for round in 0..<150 {
                        let connection = try bus.connect()
                        do {
                            _ = try await connection.call(getID, timeout: .seconds(5))
                        } catch {
                            let state = connection.queue.sync { () -> String in
                                connection.watches.values.map { entry in
                                    var p = pollfd(fd: entry.fd, events: Int16(POLLIN), revents: 0)
                                    let ready = poll(&p, 1, 0)
                                    return "fd \(entry.fd) reads \(entry.reads) enabled \(dbus_watch_get_enabled(entry.watch)) resumed \(entry.sources.map { $0.resumed }) poll \(ready)/\(p.revents)"
                                }.joined(separator: "; ") + " paused \(connection.readPaused) incoming \(connection.incoming.count)"
                            }
                            lost.withLock { $0.append("worker \(worker) round \(round): \(error) [\(state)]") }
                        }
                        connection.close()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(lost.value.isEmpty, "\(lost.value.count) calls lost: \(lost.value.prefix(5))")
    }
}
