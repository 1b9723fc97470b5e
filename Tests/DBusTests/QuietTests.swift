// Connection.whenQuiet: a service's idle exit runs only when nothing is on its way in.
import Dispatch
import TestSupport
import Testing

@testable import DBus

/// An idle service exits inside `whenQuiet`, with its loop held; these pin what "quiet" means:
/// nothing read and unhandled, no reply awaited, nothing unread.
@Suite struct QuietTests {
    @Test func anIdleConnectionIsQuietAndTheBodyRuns() async throws {
        let pair = try await BusPair.start()
        let ran = try await offPool { pair.service.whenQuiet {} }
        #expect(ran)
    }

    /// A call read but not yet handled (the loop holds it, as a busy turn would).
    @Test func aCallReadButNotHandledIsNotQuiet() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        pair.service.syncValue { pair.service.holdsIncoming = true }
        let reply = Task {
            try await pair.call("/test/Thing", "org.example.Thing1", "Greet", [.string("late")])
        }
        try await waitUntil("the call to be read") {
            pair.service.syncValue { !pair.service.incoming.isEmpty }
        }
        var ran = false
        let quiet = try await offPool { pair.service.whenQuiet { ran = true } }
        #expect(!quiet && !ran)
        pair.service.syncValue {
            pair.service.holdsIncoming = false
            pair.service.scheduleDispatch()
        }
        #expect(try await reply.value == [.string("hello, late")])
        #expect(try await offPool { pair.service.whenQuiet {} })
    }

    /// A handler waiting on another peer's reply (the UI services' owner check asks the bus).
    @Test func aReplyAwaitedIsNotQuiet() async throws {
        let pair = try await BusPair.start()
        let parked = Locked<[Responder]>([])
        try pair.client.export(
            "/test/Slow",
            interfaces: [
                Interface(
                    "org.example.Slow",
                    methods: [
                        Method(
                            "Hang",
                            handler: .deferred { _, responder in parked.withLock { $0.append(responder) } })
                    ])
            ])
        let answered = Inbox<Bool>()
        pair.service.call(
            MethodCall(
                destination: try BusName(pair.client.uniqueName), path: "/test/Slow",
                interface: "org.example.Slow",
                member: "Hang"), timeout: nil
        ) { _ in answered.put(true) }
        try await waitUntil("the call to be parked") { parked.value.count == 1 }
        #expect(!(try await offPool { pair.service.whenQuiet {} }))
        parked.withLock { $0.removeAll() }  // released: answers Failed
        #expect(try await answered.next("the reply"))
        #expect(try await offPool { pair.service.whenQuiet {} })
    }
}
