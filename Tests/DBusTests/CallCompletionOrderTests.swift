// Connection.call never runs its completion before it returns, even for a failure known at once.
import Testing
import TestSupport

@testable import DBus

/// The broker calls a provider and only then replies to `Perform` in the same turn; `Finished`
/// (sent from the call's completion) must never overtake that reply. That holds because a
/// completion runs in a later turn than its `call`, which these tests pin for the failures
/// known before anything is sent.
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
        let pair = try BusPair()
        let call = MethodCall(
            destination: try BusName(pair.service.uniqueName), path: "/", interface: .peer, member: "Ping",
            body: [.string("a\u{0}b")])
        #expect(try await order(on: pair.client, call) == ["returned", "failed"])
    }

    @Test func aClosedConnectionFailsAfterCallReturns() async throws {
        let pair = try BusPair()
        let closed = try pair.bus.connect()
        closed.close()
        let call = MethodCall(destination: "org.example.Gone", path: "/", interface: .peer, member: "Ping")
        #expect(try await order(on: closed, call) == ["returned", "failed"])
    }
}
