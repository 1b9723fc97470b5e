// MemoryReading: a broker's VmRSS, Pss and private memory at one moment, for `--memory`.
import Foundation

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

    /// `pid`'s memory now: its `VmRSS` (`BrokerLauncher.residentKilobytes`) and its rollup's
    /// Pss and private pages (0 when the rollup cannot be read).
    static func read(pid: pid_t) -> MemoryReading {
        let rss = BrokerLauncher.residentKilobytes(of: pid)
        let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        var fields: [Substring: Double] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, words[0].hasSuffix(":"), let value = Double(words[1]) else { continue }
            fields[words[0].dropLast()] = value
        }
        return MemoryReading(
            pid: pid, rss: rss, pss: fields["Pss"] ?? 0,
            privateKilobytes: (fields["Private_Clean"] ?? 0) + (fields["Private_Dirty"] ?? 0))
    }
}
