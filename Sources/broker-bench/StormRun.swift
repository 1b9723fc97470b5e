// `--storm R`: only the registration storm, R times per size, with the victim's answer at two sizes and both probes.
import ActivityBrokerInterface
import DBus
import Foundation

/// What the victim's wait during the storm is made of, measured in one run: the victim's
/// `ListActivities` with 60 records (~10 KB answer) and with 15 (~2.5 KB), the bus's own
/// `GetId` and the broker's `Peer.Ping`, alternating on one connection through each storm.
/// If the tails follow the answer's size, the wait is in moving bytes (the bus reads and
/// writes about 2 KB per connection per pass); if they do not, it is in the broker's turns.
///
/// Each storm gets a fresh broker (as in the full run, whose storm comes once per broker), and
/// the samples of every storm are pooled, so that a p99 rests on more than one storm's ~50
/// calls per figure.
struct StormRun {
    let total, repeats: Int
    let address, scratch: String
    let launcher: BrokerLauncher
    /// The bus's name in the printed lines (`dbus-daemon`, `dbus-broker`).
    let busName: String

    static let names = [
        "ListActivities (60) during storm", "ListActivities (15) during storm", "bus GetId during storm",
        "broker Peer.Ping during storm",
    ]

    func run() throws -> [String] {
        let sizeRun = SizeRun(
            total: total,
            counts: CallCounts(latency: 2000, perform: 0, storm: 10_000, stormConnections: 40, starts: 0),
            address: address, scratch: scratch, launcher: launcher)
        let manifestDirectory = scratch + "/storm-\(total)/manifests"
        try Workload.writeManifests(into: manifestDirectory, range: 0..<sizeRun.workload.manifests)
        let ping = try SizeRun.pingCall()
        let lists = [try SizeRun.listCall(Workload.urlB), try SizeRun.listCall(Workload.urlA)]
        var pings: [Figure] = []
        var walls: [Double] = []
        var pooled = [[UInt64]](repeating: [], count: Self.names.count)
        var perStorm: [[Figure]] = []
        for repeat_ in 0..<repeats {
            let (broker, _) = try launcher.start(extensionDirectories: [manifestDirectory], wrapped: true)
            defer { try? launcher.stop(broker) }
            let registrants = try sizeRun.registerDynamic()
            let client = try BlockingConnection(address: address)
            for (call, expected) in zip(lists, [Workload.expectedB, Workload.expectedA]) {
                let count = try client.call(call).body.first?.array?.count ?? -1
                guard count == expected else {
                    throw BenchFailure("ListActivities gave \(count), designed for \(expected)")
                }
            }
            pings.append(try timeCalls(2000) { try client.callDiscardingReply(ping) })
            let flood = try StormFlood(
                address: address, calls: 10_000, connectionCount: 40, tag: "r\(repeat_)")
            let calls = lists + (try StormVictim.probes())
            let recorder = SampleRecorder(count: calls.count)
            let (wall, _, figures) = try flood.run { stormOver in
                try StormVictim.alternate(calls, on: client, until: stormOver, record: recorder.add)
            }
            for index in pooled.indices { pooled[index] += recorder.samples[index] }
            walls.append(Double(wall) / 1e9)
            perStorm.append(figures)
            FileHandle.standardError.write(
                Data(
                    "  [\(total) \(busName) storm \(repeat_ + 1)] \(String(format: "%.2f s", Double(wall) / 1e9)), p99 µs \(figures.map { Int($0.p99Microseconds) })\n"
                        .utf8))
            withExtendedLifetime((registrants, flood)) {}
        }
        let floor = Figure.median(pings).p50Microseconds
        var lines = [
            "storm on \(busName), N+M = \(total), \(repeats) storms (samples pooled), Ping p50 \(String(format: "%.0f", floor)) µs (quiet, before each storm)",
            String(
                format: "  storm wall time: %@ s",
                walls.map { String(format: "%.2f", $0) }.joined(separator: ", ")),
        ]
        for (index, name) in Self.names.enumerated() {
            let figure = Figure(samples: pooled[index], wallNanoseconds: 0)
            let sorted = pooled[index].sorted()
            let p90 = sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, sorted.count * 9 / 10)]) / 1000
            let maximum = Double(sorted.last ?? 0) / 1000
            let perStormP99 = perStorm.map { String(format: "%.0f", $0[index].p99Microseconds / floor) }
                .joined(separator: "/")
            lines.append(
                name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format:
                            "| n %4d  p50 %6.0f µs %5.1f×  p90 %6.0f µs %5.1f×  p99 %7.0f µs %6.1f×  max %7.0f µs %6.1f×  (p99 per storm: %@×)",
                        figure.count, figure.p50Microseconds, figure.p50Microseconds / floor, p90,
                        p90 / floor,
                        figure.p99Microseconds, figure.p99Microseconds / floor, maximum, maximum / floor,
                        perStormP99))
        }
        return lines
    }
}

/// Every sample of an alternation, per call (the figures keep only their summary).
final class SampleRecorder {
    private(set) var samples: [[UInt64]]
    init(count: Int) { samples = [[UInt64]](repeating: [], count: count) }
    func add(_ index: Int, _ nanoseconds: UInt64) { samples[index].append(nanoseconds) }
}
