// MemoryRun: `--memory`, only the broker's memory figures (VmRSS, Pss, private) at each size, in seconds rather than minutes.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

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
        var readings: [MemoryReading] = []
        _ = try PerformMemoryRun(address: address, launcher: launcher, extensionDirectories: [manifestDirectory, extraDirectory])
            .run(readings: &readings)

        let measured = try MeasuredBroker(sizeRun: sizeRun, manifestDirectory: manifestDirectory)
        let broker = measured.process
        defer { try? launcher.stop(broker) }
        let client = measured.client
        for url in [Workload.urlA, Workload.urlB, Workload.providerURL] {
            try client.callDiscardingReply(try SizeRun.listCall(url))
        }
        readings.append(MemoryReading.read(pid: broker.pid))
        withExtendedLifetime(measured) {}

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
