// Received file descriptors: owned by their values, at most 16 per message, refused by methods that take none.
@testable import DBus
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Each `h` libdbus reads is a new descriptor; kept as bare numbers, every one a peer sent
/// stayed open until the process could open nothing (a review found it: one call with an
/// `ah` repeating an index would do). Ownership is seen through a pipe: its read end reports
/// a hang-up only once every descriptor of its write end — ours, libdbus's copies in each
/// message, the decoded values' — is closed.
@Suite("Received file descriptors are owned, bounded and refused where not declared")
struct UnixFDTests {
    /// A pipe whose write end the test sends; `writer` owns the test's own copy.
    final class Pipe: @unchecked Sendable {
        let reader: Int32
        var writer: UnixFD?

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw DBusError.failed("pipe: errno \(errno)") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            reader = ends[0]
            writer = UnixFD(owning: ends[1])
        }

        deinit { close(reader) }

        /// `count` values carrying the write end (libdbus duplicates it as each is appended).
        func values(_ count: Int) -> [Value] { (0..<count).map { _ in .unixFD(writer!) } }

        /// Whether every write end is closed, waiting for it up to `deadline` (poll's hang-up).
        func writersAllClosed(within deadline: Duration = Deadline.standardWait) -> Bool {
            let end = ContinuousClock.now + deadline
            while ContinuousClock.now < end {
                var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, 100) > 0, entry.revents & Int16(POLLHUP) != 0 { return true }
            }
            return false
        }
    }

    /// A service method taking descriptors (`Take(ah)`) that keeps what it received in `kept`,
    /// and one taking options (`Options(a{sv})`) that records that it ran.
    static func interface(kept: Locked<[Value]?>, ran: Locked<Bool>) -> Interface {
        Interface(
            "org.example.Descriptors1",
            methods: [
                Method(
                    "Take", in: [Argument("fds", "ah")], out: [Argument("valid", "u")],
                    handler: .immediate { invocation in
                        kept.value = invocation.body
                        let fds = invocation.body.first?.array ?? []
                        let valid = fds.filter { if case .unixFD(let fd) = $0 { fd.isValid } else { false } }
                        return [.uint32(UInt32(valid.count))]
                    }),
                Method(
                    "Options", in: [Argument("options", "a{sv}")],
                    handler: .immediate { _ in
                        ran.value = true
                        return []
                    }),
            ])
    }

    @Test("A method declaring h receives the descriptors, and they close with the values")
    func descriptorsAreOwned() async throws {
        let pair = try await BusPair.start()
        let kept = Locked<[Value]?>(nil)
        try pair.service.export("/d", interfaces: [Self.interface(kept: kept, ran: Locked(false))])
        let pipe = try Pipe()
        // dbus-daemon carries at most 16 descriptors in a message (and disconnects a sender of more).
        let reply = try await pair.call("/d", "org.example.Descriptors1", "Take", [.array(element: "h", pipe.values(8))])
        pipe.writer = nil
        #expect(reply.first?.uint32 == 8)
        #expect(!pipe.writersAllClosed(within: .milliseconds(300)), "the values hold their descriptors")
        kept.value = nil
        #expect(pipe.writersAllClosed(), "releasing the values closes what they received")
    }

    /// A peer reaches more than 16 `h` values with 16 descriptors by repeating an index, which
    /// libdbus's encoder never writes; a message built here holds 20 for the same effect.
    @Test("Decoding one message reads at most 16 descriptors; the rest are absent")
    func decodingReadsAtMostSixteen() throws {
        let pipe = try Pipe()
        do {
            let message = try Message.methodCall(
                MethodCall(
                    destination: nil, path: "/d", interface: "org.example.Descriptors1", member: "Take",
                    body: [.array(element: "h", pipe.values(20))]),
                autoStart: false)
            pipe.writer = nil
            let fds = ValueCoding.decode(message.raw).first?.array?.compactMap {
                if case .unixFD(let fd) = $0 { fd } else { nil }
            }
            #expect(fds?.count == 20)
            #expect(fds?.filter(\.isValid).count == ValueCoding.maxReceivedDescriptors)
        }
        #expect(pipe.writersAllClosed(), "the message and the values closed every copy")
    }

    @Test("A method that declares no h refuses a call carrying descriptors, unread, and its handler never runs")
    func undeclaredDescriptorsAreRefused() async throws {
        let pair = try await BusPair.start()
        let ran = Locked(false)
        try pair.service.export("/d", interfaces: [Self.interface(kept: Locked(nil), ran: ran)])
        let pipe = try Pipe()
        let error = await pair.error(
            "/d", "org.example.Descriptors1", "Options",
            [.vardict(["x": .array(element: "h", pipe.values(3))])])
        pipe.writer = nil
        #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(ran.value == false)
        #expect(pipe.writersAllClosed(), "nothing of the call stays open in the service")
        // And the service answers on.
        #expect(await pair.error("/d", "org.example.Descriptors1", "Options", [.vardict([:])]) == nil)
    }

    @Test("Descriptors in a signal close when its handler's values go")
    func signalDescriptorsClose() async throws {
        let pair = try await BusPair.start()
        let received = Inbox<Int>()
        let subscription = pair.service.addMatch(MatchRule(interface: "org.example.Descriptors1", member: "Sent")) { signal in
            received.put(signal.body.first?.array?.count ?? -1)
        }
        defer { pair.service.cancel(subscription) }
        try await pair.settle(pair.service)
        let pipe = try Pipe()
        try pair.client.emit(
            Signal(
                path: "/d", interface: "org.example.Descriptors1", member: "Sent",
                body: [.array(element: "h", pipe.values(4))], destination: try BusName(pair.service.uniqueName)))
        pipe.writer = nil
        #expect(try await received.next("the signal") == 4)
        #expect(pipe.writersAllClosed())
    }
}
