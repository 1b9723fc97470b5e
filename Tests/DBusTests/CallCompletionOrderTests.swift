// Connection.call never runs its completion before it returns, even for a failure known at once.
import Testing
import TestSupport

@testable import DBus

/// A completion runs in a later turn than its `call`, so a caller on the loop may send what
/// must precede the outcome after calling, and never finds its completion run inside its own
/// set-up (before this, a failure known at once completed inline: a `PendingCall` stored after
/// `call` returned was already finished). These tests pin it for the failures known before
/// anything is sent.
@Suite struct CallCompletionOrderTests {
    /// Calls on the loop and records, in order, when `call` returned and when the completion ran.
    private func order(on connection: Connection, _ call: MethodCall) async throws -> [String] {
        let events = Inbox<String>()
        connection.syncValue {
            connection.call(call, timeout: nil) { result in
                if case .failure = result { events.put("failed") } else { events.put("replied") }
            }
            events.put("returned")
        }
        _ = try await events.next("the call's completion")
        _ = try await events.next("the call's completion")
        return events.items
    }

    @Test func aBodyThatCannotBeEncodedFailsAfterCallReturns() async throws {
        let pair = try await BusPair.start()
        let call = MethodCall(
            destination: try BusName(pair.service.uniqueName), path: "/", interface: .peer, member: "Ping",
            body: [.string("a\u{0}b")])
        #expect(try await order(on: pair.client, call) == ["returned", "failed"])
    }

    @Test func aClosedConnectionFailsAfterCallReturns() async throws {
        let pair = try await BusPair.start()
        let closed = try pair.bus.connect()
        closed.close()
        let call = MethodCall(destination: "org.example.Gone", path: "/", interface: .peer, member: "Ping")
        #expect(try await order(on: closed, call) == ["returned", "failed"])
    }
}
