// The storm's victim: a well-behaved client's ListActivities, timed while 40 connections flood the broker.
import DBus
import Foundation

/// A client that only asks `ListActivities`, one call at a time on its own connection, while
/// the registration storm runs: how long an app's share sheet waits when other apps flood the
/// broker (issue 14). Its target compares it with the same run's Ping p50 (the floor), p50
/// and p99 alike, since under fair service the victim should wait about one call, not the storm.
struct StormVictim {
    let connection: BlockingConnection
    let call: EncodedCall

    /// Calls until `stormOver()`; every call's latency.
    func measure(until stormOver: () -> Bool) throws -> Figure {
        var samples: [UInt64] = []
        let start = monotonicNanoseconds()
        while !stormOver() {
            let before = monotonicNanoseconds()
            try connection.callDiscardingReply(call)
            samples.append(monotonicNanoseconds() - before)
        }
        return Figure(samples: samples, wallNanoseconds: monotonicNanoseconds() - start)
    }

    /// The victim's p50 and p99 during the storm over Ping p50, per size (median over runs);
    /// the target is p99 ≤ 20× (issue 14; about 4,000× when served in arrival order).
    static func targets(_ report: Report) -> [Report.Target] {
        report.sizes.flatMap { size -> [Report.Target] in
            guard let victims = report.perRun["\(size)"]?["listDuringStorm"], let pings = report.perRun["\(size)"]?["ping"],
                victims.count == pings.count, !victims.isEmpty
            else { return [] }
            func median(_ value: (Figure) -> Double) -> Double {
                let ratios = zip(victims, pings).map { value($0) / max($1.p50Microseconds, 1) }.sorted()
                return ratios.count % 2 == 1
                    ? ratios[ratios.count / 2] : (ratios[ratios.count / 2 - 1] + ratios[ratios.count / 2]) / 2
            }
            let p50 = median(\.p50Microseconds)
            let p99 = median(\.p99Microseconds)
            return [
                Report.Target(
                    name: "victim ListActivities during the storm at \(size), p99 / Ping p50",
                    measured: String(format: "%.1f× (p50 %.1f×)", p99, p50), limit: "≤ 20×", met: p99 <= 20)
            ]
        }
    }
}
