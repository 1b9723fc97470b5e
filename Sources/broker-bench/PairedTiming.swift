// Latency figures timed alternating with Peer.Ping in blocks, so each ratio to Ping compares samples taken under the same load.
import ActivityBrokerInterface
import DBus

/// Times each latency figure of the main table alternating with `Peer.Ping` to the broker on
/// the same connection: `block` Pings, `block` calls of the figure, again, until each has its
/// count. Each figure then has Ping samples of its own, taken within a fraction of a second of
/// its own, and its ratio (`Report.ratio`) is to those. On the shared 2-core VM Ping has two
/// modes (about 120 µs or 160–200 µs p50) that switch over seconds; a Ping measured once, in a
/// block of its own, moved a later figure's ratio by 0.2–0.3× depending on which mode each
/// block fell in. Every pair's Ping samples together are the table's floor row (`floor`).
final class PairedTiming {
    /// Calls per block: 200. Long enough that a call's after-effects (a Perform's trailing
    /// `PropertiesChanged` and job bookkeeping, the provider's loop re-arming, the answer
    /// cache's last entry) reach the other figure only at block edges: 5,000 calls give 25
    /// edges where Ping follows the figure, 0.5% of the Ping samples, so even if every edge
    /// Ping were slowed they could not be Ping's p99 (the slowest 1%) by themselves, which
    /// blocks of 100 (1%) could. Short enough that both figures see the same machine mode: a
    /// Ping block takes 15–40 ms, a `ListActivities` block 30–90 ms, a Perform → Finished
    /// block 80–250 ms, so a pair's two blocks are at most a quarter of a second apart, while
    /// a mode mostly lasts longer: per-block medians of one run moved together (a Ping block
    /// at 117 µs beside a provider Perform block at 505 µs, one at 222 µs beside 683 µs).
    static let block = 200

    /// The figures key of the Ping samples paired with figure `name` (`"list15.ping"`); the
    /// JSON output carries them next to the figure so a reader can recompute the ratio.
    static func floorName(_ name: String) -> String { name + ".ping" }

    private let client: BlockingConnection
    private let ping: EncodedCall
    private var pingSamples: [UInt64] = []
    private var pingWall: UInt64 = 0

    /// Pairs figures timed on `client` with `Peer.Ping` to the broker, sent on `client` too.
    init(client: BlockingConnection) throws {
        self.client = client
        ping = try SizeRun.pingCall()
    }

    /// Every pair's Ping samples so far: the table's "Peer.Ping (floor)" row, and the floor of
    /// the figures not paired here (the storm's, start's Ping multiple).
    var floor: Figure { Figure(samples: pingSamples, wallNanoseconds: pingWall) }

    /// Times `count` calls of `body` and `count` Pings alternating in blocks, after `warmUp`
    /// untimed calls of each (the figure's first, then Ping's, which the first timed block
    /// of Pings follows); stores the figure as `name` and its Pings as `floorName(name)` in
    /// `figures`. Each figure's calls per second are over its own blocks' time.
    func time(
        _ name: String, _ count: Int, warmUp: Int = 200, into figures: inout [String: Figure],
        _ body: () throws -> Void
    ) throws {
        for _ in 0..<warmUp { try body() }
        for _ in 0..<warmUp { try client.callDiscardingReply(ping) }
        // Index 0: Ping, 1: the figure.
        var samples: [[UInt64]] = [[], []]
        samples[0].reserveCapacity(count)
        samples[1].reserveCapacity(count)
        var walls: [UInt64] = [0, 0]
        while samples[1].count < count {
            for which in 0..<2 {
                let size = min(Self.block, count - samples[which].count)
                let start = monotonicNanoseconds()
                for _ in 0..<size {
                    let before = monotonicNanoseconds()
                    if which == 0 { try client.callDiscardingReply(ping) } else { try body() }
                    samples[which].append(monotonicNanoseconds() - before)
                }
                walls[which] += monotonicNanoseconds() - start
            }
        }
        figures[Self.floorName(name)] = Figure(samples: samples[0], wallNanoseconds: walls[0])
        figures[name] = Figure(samples: samples[1], wallNanoseconds: walls[1])
        pingSamples += samples[0]
        pingWall += walls[0]
    }
}

extension Report {
    /// Each run's floor for figure `name`, named row by row so that no figure falls back to
    /// another's floor unnoticed: the pooled floor row for itself and the during-storm rows
    /// (which have their own probes too); `PerformMemoryRun`'s own Pings (another broker) for
    /// `performPaired`; none for those Pings themselves; the Pings timed alternating with it
    /// for every other figure (nil, so no ratio, if it has none).
    func pairedFloor(_ size: Int, _ name: String) -> [Figure]? {
        let figures = perRun["\(size)"]
        switch name {
        case "ping", "listDuringStorm", "busDuringStorm", "pingDuringStorm": return figures?["ping"]
        case "performPaired": return figures?["pingPaired"]
        case "pingPaired": return nil
        default: return figures?[PairedTiming.floorName(name)]
        }
    }
}
