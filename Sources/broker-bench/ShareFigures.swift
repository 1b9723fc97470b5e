// The share-sheet figures of one bench run (issue 15): first-frame samples and RSS over the cycles.

/// Samples in nanoseconds; VmRSS in kB. Empty until `ShareRun` ran.
struct ShareFigures: Codable, FloorFigures {
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

    /// The report's lines.
    func text() -> [String] {
        guard !bareNanoseconds.isEmpty else { return [] }
        var lines = floorRows("share sheet", floor: "bare GTK 4 window, spawn → first frame")
        lines += [
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
