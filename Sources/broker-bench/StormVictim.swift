// The storm's victim: a well-behaved client's ListActivities, timed while 40 connections flood the broker.
import ActivityBrokerInterface
import DBus
import Foundation

/// A client that only asks `ListActivities`, one call at a time on its own connection, while
/// the registration storm runs: how long an app's share sheet waits when other apps flood the
/// broker (issue 14). Its target compares it with the same run's Ping p50 (the floor), p50
/// and p99 alike, since under fair service the victim should wait about one call, not the storm.
struct StormVictim {
    let connection: BlockingConnection
    let call: EncodedCall

    /// The victim's calls and, alternating with them on the same thread, two probes that tell
    /// where its wait is: the bus's own `GetId` (dbus-daemon alone) and the broker's
    /// `Peer.Ping` (the bus and the broker's queueing, with no handler work).
    struct Figures {
        let victim: Figure
        let bus: Figure
        let brokerPing: Figure
    }

    /// Calls until `stormOver()`; every call's latency.
    func measure(until stormOver: () -> Bool) throws -> Figures {
        let figures = try Self.alternate([call] + Self.probes(), on: connection, until: stormOver)
        return Figures(victim: figures[0], bus: figures[1], brokerPing: figures[2])
    }

    /// The two probes: the bus's own `GetId`, the broker's `Peer.Ping`.
    static func probes() throws -> [EncodedCall] {
        [
            try EncodedCall(
                MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId")
            ),
            try SizeRun.pingCall(),
        ]
    }

    /// Sends `calls` in turn, one at a time on `connection`, until `stormOver()`; one figure
    /// per call, in the order given; `record` sees every sample.
    static func alternate(
        _ calls: [EncodedCall], on connection: BlockingConnection, until stormOver: () -> Bool,
        record: (Int, UInt64) -> Void = { _, _ in }
    ) throws -> [Figure] {
        var samples = [[UInt64]](repeating: [], count: calls.count)
        let start = monotonicNanoseconds()
        var turn = 0
        while !stormOver() {
            let which = turn % calls.count
            turn += 1
            let before = monotonicNanoseconds()
            try connection.callDiscardingReply(calls[which])
            let elapsed = monotonicNanoseconds() - before
            samples[which].append(elapsed)
            record(which, elapsed)
        }
        let wall = monotonicNanoseconds() - start
        return samples.map { Figure(samples: $0, wallNanoseconds: wall) }
    }

    /// The victim's p50 and p99 during the storm over Ping p50, per size (median over runs);
    /// the target is p99 ≤ 20× (issue 14; about 4,000× when served in arrival order).
    static func targets(_ report: Report) -> [Report.Target] {
        report.sizes.flatMap { size -> [Report.Target] in
            guard let victims = report.perRun["\(size)"]?["listDuringStorm"],
                let pings = report.perRun["\(size)"]?["ping"],
                victims.count == pings.count, !victims.isEmpty
            else { return [] }
            func median(_ figures: [Figure], _ value: (Figure) -> Double) -> Double {
                Samples.median(zip(figures, pings).map { value($0) / max($1.p50Microseconds, 1) }) ?? .nan
            }
            let p50 = median(victims, \.p50Microseconds)
            let p99 = median(victims, \.p99Microseconds)
            // The bus alone during the same storm: the part of the wait no broker can remove.
            let busP99 = median(report.perRun["\(size)"]?["busDuringStorm"] ?? [], \.p99Microseconds)
            return [
                Report.Target(
                    name: "victim ListActivities during the storm at \(size), p99 / Ping p50",
                    measured: String(format: "%.1f× (p50 %.1f×; bus GetId p99 %.1f×)", p99, p50, busP99),
                    limit: "≤ 20×",
                    met: p99 <= 20)
            ]
        }
    }
}
