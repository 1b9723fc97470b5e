// What happens to the broker when its bus goes away (a known broker bug, disabled until fixed).
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct BrokerLifetimeTests {
    /// The broker keeps running, without a connection, after its bus is gone: on a desktop that
    /// is a daemon outliving the session; in tests, a process only the guard kills. Bug in
    /// Sources/ActivityBroker (not this helper's to fix): it registers no `onDisconnect`
    /// handler; it should flush its usage file and exit (status 0 or 1) when the bus is lost.
    @Test(.disabled("broker bug: activity-broker does not exit when its bus goes away"))
    func theBrokerExitsWhenItsBusGoesAway() async throws {
        let broker = try await BrokerProcess(bus: TestBus())
        defer { broker.stop() }
        let pid = broker.pid
        broker.bus.stop()
        try await waitUntil("the broker to exit after its bus went away", deadline: .seconds(5)) {
            !isRunning(pid)
        }
    }
}

/// Whether `pid` runs (exists and is not a zombie awaiting its parent's wait).
func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}
