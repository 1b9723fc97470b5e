// The share-sheet figures of one bench run (issue 15): first-frame samples and RSS over the cycles.

/// Samples in nanoseconds; VmRSS in kB. Empty until `ShareRun` ran.
struct ShareFigures: Codable {
    /// The GSK renderer both GTK programs used.
    var renderer = ""
    /// spawn → first frame of the bare GTK 4 window.
    var bareNanoseconds: [UInt64] = []
    /// Share → the sheet's first frame, the service not running (activation included).
    var coldNanoseconds: [UInt64] = []
    /// Share → the sheet's first frame, the service running: one per Share/cancel cycle.
    var warmNanoseconds: [UInt64] = []
    var cycles = 0
    var rss: [RSSPoint] = []

    static func median(_ samples: [UInt64]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        return Double(
            sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
    }

    static func percentile(_ samples: [UInt64], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return Double(sorted[min(max(rank, 0), sorted.count - 1)])
    }

    var bareMilliseconds: Double { Self.median(bareNanoseconds) / 1e6 }
    var coldMilliseconds: Double { Self.median(coldNanoseconds) / 1e6 }
    var warmMilliseconds: Double { Self.median(warmNanoseconds) / 1e6 }
    var warmP99Milliseconds: Double { Self.percentile(warmNanoseconds, 0.99) / 1e6 }
    /// The figure: cold Share → first frame over the bare window's first frame.
    var coldRatio: Double { coldMilliseconds / max(bareMilliseconds, 1e-9) }
    var warmRatio: Double { warmMilliseconds / max(bareMilliseconds, 1e-9) }

    /// The report's lines.
    func text() -> [String] {
        guard !bareNanoseconds.isEmpty else { return [] }
        var lines = [
            "share sheet (GSK_RENDERER=\(renderer), medians):",
            String(
                format: "  bare GTK 4 window, spawn → first frame (floor, %d samples)   %.1f ms",
                bareNanoseconds.count, bareMilliseconds),
            String(
                format:
                    "  Share → sheet's first frame, cold (activation, %d samples)   %.1f ms (%.2f× floor)",
                coldNanoseconds.count, coldMilliseconds, coldRatio),
            String(
                format:
                    "  Share → sheet's first frame, warm (%d cycles)                %.1f ms, p99 %.1f ms (%.2f× floor)",
                warmNanoseconds.count, warmMilliseconds, warmP99Milliseconds, warmRatio),
        ]
        for point in rss {
            lines.append(
                String(
                    format: "  VmRSS after %4d Share/cancel cycles: broker %.1f MB, sheet %.1f MB",
                    point.cycles, point.broker / 1024, point.sheet / 1024))
        }
        return lines
    }
}

/// VmRSS (kB) of the broker and of the sheet service after `cycles` Share/cancel cycles.
struct RSSPoint: Codable {
    var cycles: Int
    var broker: Double
    var sheet: Double
}
