// Fair service under a flood: a quiet client's read is answered before the flood ends, each
// sender's order is kept, every call is answered, and the broker's backlog stays bounded.
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// These tests stop the broker (SIGSTOP) while the clients send, so that everything is queued
/// in the bus ahead of the broker when it continues, in a known order: the assertions are on
/// what the answers contain and how many came, never on timing.
@Suite("Fair scheduling between peers")
struct FairSchedulingTests {
    static let url = "https://example.org/page"

    /// A pipelined client (libdbus without a loop): sends now, reads replies later.
    final class Pipeline: @unchecked Sendable {
        let connection: BlockingConnection
        private(set) var serials: [UInt32] = []

        init(_ f: BrokerFixture) throws { connection = try BlockingConnection(address: f.bus.address) }

        @discardableResult
        func send(_ member: MemberName, _ body: [Value]) throws -> UInt32 {
            let call = try EncodedCall(
                MethodCall(
                    destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                    member: member, body: body))
            let serial = connection.send(call)
            serials.append(serial)
            return serial
        }

        /// A round trip to the bus itself: once answered, everything sent before it has been
        /// routed (the bus handles one connection's messages in order).
        func routed() throws {
            connection.flush()
            _ = try connection.call(
                EncodedCall(MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId")))
        }

        /// The replies to everything sent, in the order they arrive (signals skipped).
        func replies(deadline: Duration = .seconds(60)) throws -> [ReceivedMessage] {
            var replies: [ReceivedMessage] = []
            let end = ContinuousClock.now + deadline
            while replies.count < serials.count {
                guard let message = connection.next(until: end) else {
                    throw DBusError.failed("\(replies.count) of \(serials.count) replies")
                }
                if message.kind == .methodReturn || message.kind == .error { replies.append(message) }
            }
            return replies
        }
    }

    /// A registration of `id` offered for example.org.
    static func record(_ id: String) -> [Value] {
        [.vardict([
            "id": .string(id), "name": .string(id), "category": .string("share"),
            "object_path": .objectPath("/test/provider"), "match": .vardict(["hosts": .stringArray(["example.org"])]),
        ])]
    }

    /// Runs `body` with the broker stopped, then lets it continue (also when `body` throws).
    static func whileStopped(_ f: BrokerFixture, _ body: () throws -> Void) rethrows {
        f.broker.send(SIGSTOP)
        defer { f.broker.send(SIGCONT) }
        try body()
    }

    /// `name: value kB` from /proc/PID/status.
    static func status(_ pid: pid_t, _ name: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test("A client's ListActivities sent behind 500 other registrations is answered before most of them")
    func victimBeforeFlood() async throws {
        let f = try await BrokerFixture()
        let floods = try (0..<5).map { _ in try Pipeline(f) }
        let victim = try Pipeline(f)
        let perConnection = 100
        let total = floods.count * perConnection
        let (answer, floodReplies) = try await offPool {
            try Self.whileStopped(f) {
                for (c, flood) in floods.enumerated() {
                    for i in 0..<perConnection { try flood.send("RegisterActivity", Self.record("org.flood.c\(c).a\(i)")) }
                    try flood.routed()
                }
                try victim.send("ListActivities", [.vardict(["url": .string(Self.url)]), .vardict([:])])
                try victim.routed()
            }
            return (try victim.replies()[0], try floods.map { try $0.replies() })
        }
        #expect(answer.kind == .methodReturn)
        let offered = (answer.body.first?.array ?? []).compactMap { $0.vardict?["id"]?.string }
        let floodSeen = offered.filter { $0.hasPrefix("org.flood.") }.count
        // In arrival order it would see all of them; served fairly, usually a handful. How many
        // the broker handles before it has even read the victim's call depends on how fast the
        // bus refills its socket, which the parallel suite slows: half was once exceeded (272 of
        // 500, and 252 in a helper's run). Four fifths still tells fair from arrival order.
        #expect(floodSeen < total * 4 / 5, "the victim saw \(floodSeen) of \(total) flood registrations")
        // Nothing lost: every flood call answered, in order, and all of them registered.
        for (flood, replies) in zip(floods, floodReplies) {
            #expect(replies.allSatisfy { $0.kind == .methodReturn })
            #expect(replies.map(\.replySerial) == flood.serials)
        }
        let registered = try await f.registered()
        #expect(registered.keys.filter { $0.hasPrefix("org.flood.") }.count == total)
    }

    @Test("One sender's calls take effect in its order: its reads see its own earlier writes, even during a flood")
    func senderOrderKept() async throws {
        let f = try await BrokerFixture()
        let flood = try Pipeline(f)
        let app = try Pipeline(f)
        let (replies, floodReplies) = try await offPool {
            try Self.whileStopped(f) {
                for i in 0..<200 { try flood.send("RegisterActivity", Self.record("org.flood.a\(i)")) }
                try flood.routed()
                for i in 0..<50 { try app.send("RegisterActivity", Self.record("org.app.a\(i)")) }
                try app.send("ListRegistered", [.vardict([:])])
                try app.send("UnregisterActivity", [.string("org.app.a0")])
                try app.send("ListRegistered", [.vardict([:])])
                try app.routed()
            }
            return (try app.replies(), try flood.replies())
        }
        #expect(replies.map(\.replySerial) == app.serials, "replies in the order of the calls")
        #expect(replies.allSatisfy { $0.kind == .methodReturn })
        func own(_ reply: ReceivedMessage) -> Set<String> {
            Set((reply.body.first?.array ?? []).compactMap { $0.vardict?["id"]?.string }.filter { $0.hasPrefix("org.app.") })
        }
        #expect(own(replies[50]) == Set((0..<50).map { "org.app.a\($0)" }))
        #expect(own(replies[52]) == Set((1..<50).map { "org.app.a\($0)" }))
        #expect(floodReplies.count == 200 && floodReplies.allSatisfy { $0.kind == .methodReturn })
    }

    @Test("Peers flooding without reading replies do not grow the broker past its backlog bound; all answered")
    func backlogBounded() async throws {
        let f = try await BrokerFixture()
        let bound = Backlog.messageBound
        let floods = try (0..<4).map { _ in try Pipeline(f) }
        let perConnection = bound / 16
        let pid = f.broker.pid
        let before = Self.status(pid, "VmRSS")
        try await offPool {
            try Self.whileStopped(f) {
                // Cheap calls that change nothing: each is answered NotFound.
                for flood in floods {
                    for _ in 0..<perConnection { try flood.send("UnregisterActivity", [.string("org.test.absent")]) }
                    try flood.routed()
                }
            }
        }
        let replies = try await offPool { try floods.map { try $0.replies() } }
        for answers in replies {
            #expect(answers.count == perConnection)
            #expect(answers.allSatisfy { $0.errorName == BrokerFixture.errorPrefix + "NotFound" })
        }
        try await f.settle()
        // Generous: a quarter of the bound was sent at once (0.6 MB of calls); however fast the
        // bus delivers it, the broker holds no more than that unanswered, replies included.
        let growth = Self.status(pid, "VmHWM") - before
        #expect(growth < 24 * 1024, "peak RSS grew by \(growth) kB")
        // Whenever reading paused, the backlog had stayed within its bound.
        let highs = f.log.split(separator: "\n").filter { $0.contains("reading resumed") }.compactMap { line in
            line.split(separator: " ").drop { $0 != "most" }.dropFirst().first.flatMap { Int($0) }
        }
        #expect(highs.allSatisfy { $0 <= bound + 64 }, "\(highs)")
    }
}
