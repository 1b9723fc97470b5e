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
///
/// A broker of its own rather than the latency figures' one: their count of Performs depends on
/// `--calls`, and this figure's must not.
struct PerformMemoryRun {
    static let performs = 10_000

    let address: String
    let launcher: BrokerLauncher
    let extensionDirectories: [String]

    func run() throws -> [String: Figure] {
        let (broker, _) = try launcher.start(extensionDirectories: extensionDirectories, wrapped: true)
        defer { try? launcher.stop(broker) }
        let provider = try ProviderService(address: address)
        try provider.register()
        let client = try BlockingConnection(address: address)
        try client.addMatch(MatchRule(interface: Job1.interface.rawValue, member: Job1.finished.name.rawValue))
        for url in [Workload.urlA, Workload.urlB, Workload.providerURL] {
            try client.callDiscardingReply(
                try EncodedCall(
                    Broker1.call(Broker1.listActivities, [.vardict([ItemKey.url: .string(url)]), .vardict([:])])))
        }
        var figures: [String: Figure] = [:]
        figures["rssBeforePerforms"] = Figure(value: BrokerLauncher.residentKilobytes(of: broker.pid))
        let perform = try EncodedCall(
            Broker1.call(
                Broker1.perform,
                [.string(Workload.providerActivity), .vardict([ItemKey.url: .string(Workload.providerURL)]), .vardict([:])]))
        let began = monotonicNanoseconds()
        for _ in 0..<Self.performs { try SizeRun.performAndWait(client, perform) }
        figures["rssAfterPerforms"] = Figure(value: BrokerLauncher.residentKilobytes(of: broker.pid))
        let elapsed = Double(monotonicNanoseconds() - began) / 1e9
        FileHandle.standardError.write(
            Data(
                String(
                    format: "  %d Performs in %.1f s: RSS %.1f → %.1f MB\n", Self.performs, elapsed,
                    figures["rssBeforePerforms"]!.value! / 1024, figures["rssAfterPerforms"]!.value! / 1024
                ).utf8))
        withExtendedLifetime(provider) {}
        return figures
    }
}
