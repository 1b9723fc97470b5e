// RSS after 10,000 Performs: a fresh broker's memory before any job and once 10,000 finished jobs wait out their afterlife.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Measures what finished jobs cost while API.md §6 keeps them readable (60 s): a broker of
/// its own on the size's manifests, the bench's provider registered and the measured answers
/// cached, its RSS before any Perform (`rssBeforePerforms`), then after `performs` provider
/// Performs, one at a time, each waited for until its `Finished` (`rssAfterPerforms`). All of
/// them are still within their afterlife when it is read, so the growth is what they are kept as.
/// A Ping after each Perform gives `performPaired` / `pingPaired`: Perform → Finished and its
/// floor measured alternately.
///
/// A broker of its own rather than the latency figures' one: their count of Performs depends on
/// `--calls`, and this figure's must not.
struct PerformMemoryRun {
    static let performs = 10_000

    let address: String
    let launcher: BrokerLauncher
    let extensionDirectories: [String]

    func run() throws -> [String: Figure] {
        var readings: [MemoryReading] = []
        return try run(readings: &readings)
    }

    /// `run()`, appending the broker's memory before and after the Performs to `readings`
    /// (`--memory` prints their Pss and private pages too).
    func run(readings: inout [MemoryReading]) throws -> [String: Figure] {
        let (broker, _) = try launcher.start(extensionDirectories: extensionDirectories, wrapped: true)
        defer { try? launcher.stop(broker) }
        let provider = try ProviderService(address: address)
        try provider.register()
        let client = try BlockingConnection(address: address)
        try client.addMatch(Job1.finished.rule())
        for url in [Workload.urlA, Workload.urlB, Workload.providerURL] {
            try client.callDiscardingReply(
                try EncodedCall(
                    Broker1.call(Broker1.listActivities, [.vardict([ItemKey.url: .string(url)]), .vardict([:])])))
        }
        var figures: [String: Figure] = [:]
        let before = MemoryReading.read(pid: broker.pid)
        readings.append(before)
        figures["rssBeforePerforms"] = Figure(value: before.rss)
        let perform = try EncodedCall(
            Broker1.call(
                Broker1.perform,
                [.string(Workload.providerActivity), .vardict([ItemKey.url: .string(Workload.providerURL)]), .vardict([:])]))
        let ping = try SizeRun.pingCall()
        // Each Perform → Finished is followed by a Ping, both timed: a ratio of two figures taken
        // under the same load, which the latency figures (Ping first, Performs later) are not.
        var performs: [UInt64] = []
        var pings: [UInt64] = []
        performs.reserveCapacity(Self.performs)
        pings.reserveCapacity(Self.performs)
        let began = monotonicNanoseconds()
        for _ in 0..<Self.performs {
            let start = monotonicNanoseconds()
            try SizeRun.performAndWait(client, perform)
            let middle = monotonicNanoseconds()
            try client.callDiscardingReply(ping)
            performs.append(middle - start)
            pings.append(monotonicNanoseconds() - middle)
        }
        let wall = monotonicNanoseconds() - began
        let after = MemoryReading.read(pid: broker.pid)
        readings.append(after)
        figures["rssAfterPerforms"] = Figure(value: after.rss)
        figures["performPaired"] = Figure(samples: performs, wallNanoseconds: wall)
        figures["pingPaired"] = Figure(samples: pings, wallNanoseconds: wall)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "  %d Performs in %.1f s: RSS %.1f → %.1f MB; paired p50 Perform→Finished %.0f µs, Ping %.0f µs (%.2f×)\n",
                    Self.performs, Double(wall) / 1e9, figures["rssBeforePerforms"]!.value! / 1024,
                    figures["rssAfterPerforms"]!.value! / 1024, figures["performPaired"]!.p50Microseconds,
                    figures["pingPaired"]!.p50Microseconds,
                    figures["performPaired"]!.p50Microseconds / figures["pingPaired"]!.p50Microseconds
                ).utf8))
        withExtendedLifetime(provider) {}
        return figures
    }
}
