// MemoryRun: `--memory`, only the broker's memory figures (VmRSS, Pss, private) at each size, in seconds rather than minutes.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// One reading of a broker's memory, from `/proc/PID/smaps_rollup`, taken next to each `VmRSS`.
///
/// `VmRSS` counts every resident page of the shared libraries, even when other processes map
/// the same pages; `pss` divides each shared page between the processes mapping it, and
/// `privateKilobytes` counts only the pages no other process maps. For a broker linked against
/// the shared Swift runtime the three differ by what the bench (a Swift process too) shares with
/// it; for a broker with the runtime linked in they are nearly equal.
struct MemoryReading: Sendable {
    let pid: pid_t
    let rss: Double
    let pss: Double
    let privateKilobytes: Double

    /// Every reading of this bench run, in order; `--memory` prints them.
    static let all = Locked<[MemoryReading]>([])

    /// Reads `pid`'s rollup and appends it to `all` (nothing when the file cannot be read).
    static func note(pid: pid_t, rss: Double) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return }
        var fields: [Substring: Double] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, words[0].hasSuffix(":"), let value = Double(words[1]) else { continue }
            fields[words[0].dropLast()] = value
        }
        let reading = MemoryReading(
            pid: pid, rss: rss, pss: fields["Pss"] ?? 0,
            privateKilobytes: (fields["Private_Clean"] ?? 0) + (fields["Private_Dirty"] ?? 0))
        all.withLock { $0.append(reading) }
    }
}

/// `--memory`: for each size, the two brokers whose RSS the targets name — a fresh one
/// on the size's manifests before and after 10,000 provider Performs (`PerformMemoryRun`), and
/// the measured one (manifests plus dynamic registrations, its answers cached) — without the
/// latency figures and the storm, so a change's effect on memory can be measured in seconds.
struct MemoryRun {
    let total: Int
    let address: String
    let scratch: String
    let launcher: BrokerLauncher

    /// Runs both brokers and returns the table's lines.
    func run() throws -> [String] {
        let sizeRun = SizeRun(total: total, counts: .quick, address: address, scratch: scratch, launcher: launcher)
        let workload = sizeRun.workload
        let base = scratch + "/size-\(total)"
        let manifestDirectory = base + "/manifests"
        let extraDirectory = base + "/manifests-extra"
        try Workload.writeManifests(into: manifestDirectory, range: 0..<workload.manifests)
        try Workload.writeManifests(into: extraDirectory, range: workload.manifests..<total)
        MemoryReading.all.value = []
        _ = try PerformMemoryRun(address: address, launcher: launcher, extensionDirectories: [manifestDirectory, extraDirectory])
            .run()

        let (broker, _) = try launcher.start(extensionDirectories: [manifestDirectory], wrapped: true)
        defer { try? launcher.stop(broker) }
        let registrants = try sizeRun.registerDynamic()
        let provider = try ProviderService(address: address)
        try provider.register()
        let client = try BlockingConnection(address: address)
        for url in [Workload.urlA, Workload.urlB, Workload.providerURL] {
            try client.callDiscardingReply(try SizeRun.listCall(url))
        }
        _ = BrokerLauncher.residentKilobytes(of: broker.pid)
        withExtendedLifetime((registrants, provider)) {}

        let readings = MemoryReading.all.value
        let labels = ["fresh broker, before Performs", "same, after 10,000 Performs", "broker (N+M activities)"]
        var lines = ["memory at N+M = \(total)                  VmRSS kB    Pss kB  private kB"]
        for (label, reading) in zip(labels, readings) {
            lines.append(
                label.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(format: "%10.0f%10.0f%12.0f", reading.rss, reading.pss, reading.privateKilobytes))
        }
        return lines
    }
}
