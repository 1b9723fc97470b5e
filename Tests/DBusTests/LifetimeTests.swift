// Connection lifetime: release without close, close from inside a handler, calls from threads.
import DBus
import Foundation
import Testing
import TestSupport

@Suite struct LifetimeTests {
    @Test func releasedConnectionLeavesTheBus() async throws {
        let pair = try await BusPair.start()
        var temporary: Connection? = try pair.bus.connect()
        let name = try #require(temporary?.uniqueName)
        let gone = Inbox<Bool>()
        _ = pair.service.watchDisconnect(of: name) { gone.put(true) }
        try await pair.settle(pair.service)
        _ = try await temporary?.call(MethodCall(destination: try BusName(pair.service.uniqueName), path: "/", interface: .peer, member: "Ping"))
        temporary = nil
        _ = try await gone.next("the released connection to leave the bus")
    }

    @Test("onEnd handlers run once, in the order added, when the connection closes; a cancelled one never, one added after at once")
    func endHandlersRunInOrderUnlessCancelled() async throws {
        let pair = try await BusPair.start()
        let connection = try await offPool { try pair.bus.connect() }
        let ran = Locked<[String]>([])
        connection.onEnd { ran.withLock { $0.append("first") } }
        let cancelled = connection.onEnd { ran.withLock { $0.append("cancelled") } }
        connection.onEnd { ran.withLock { $0.append("second") } }
        connection.cancel(cancelled)
        connection.close()
        let late = Inbox<Bool>()
        connection.onEnd { late.put(true) }
        #expect(try await late.next("a handler added after the end to run"))
        #expect(ran.value == ["first", "second"])
    }

    @Test func handlerMayCloseItsOwnConnection() async throws {
        let pair = try await BusPair.start()
        let closer = try pair.bus.connect()
        let closed = Inbox<Bool>()
        _ = closer.addMatch(MatchRule(interface: "org.example.Close")) { _ in
            closer.close()
            closed.put(true)
        }
        try await pair.settle(closer)
        let gone = Inbox<Bool>()
        _ = pair.service.watchDisconnect(of: closer.uniqueName) { gone.put(true) }
        try pair.service.emit(Signal(path: "/", interface: "org.example.Close", member: "Now"))
        try pair.service.emit(Signal(path: "/", interface: "org.example.Close", member: "Again"))
        _ = try await closed.next()
        _ = try await gone.next("the closed connection to leave the bus")
        await #expect(throws: DBusError.disconnected()) {
            _ = try await closer.call(MethodCall(destination: "org.example.X", path: "/", interface: .peer, member: "Ping"))
        }
        try await pair.settle(pair.client)
        #expect(closed.count == 1)
    }

    /// Also a regression test: the daemon's built-in limit of 128 pending replies per connection
    /// failed such bursts with LimitsExceeded; TestBus now uses session-bus limits.
    @Test func callsFromManyThreadsAtOnce() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Echo", interfaces: [echoInterface(["i"])])
        let destination = try BusName(pair.service.uniqueName)
        let replies = Inbox<Int32>()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            pair.client.call(
                MethodCall(destination: destination, path: "/test/Echo", interface: "org.example.Echo", member: "Echo0", body: [.int32(Int32(index))])
            ) { result in
                replies.put((try? result.get())?.first?.int32 ?? -1)
            }
        }
        try await replies.waitForCount(200, "replies")
        #expect(Set(replies.items) == Set((0..<200).map(Int32.init)))
    }
}
