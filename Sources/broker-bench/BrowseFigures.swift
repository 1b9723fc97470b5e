// The browser window's figures of one bench run (issue 16): first-paint samples of a bare web view and of Browse.

/// Samples in nanoseconds. Empty until `BrowseRun` ran.
struct BrowseFigures: Codable, FloorFigures {
    /// The GSK renderer both WebKit programs used.
    var renderer = ""
    /// spawn → first paint of the page in a bare WebKitWebView (`webkit-first-paint`).
    var bareNanoseconds: [UInt64] = []
    /// Browse → the window's first paint of the page, the browser service not running.
    var coldNanoseconds: [UInt64] = []
    /// Browse → the window's first paint of the page, the service running (one window closed
    /// before the next opens).
    var warmNanoseconds: [UInt64] = []

    /// The median of each cold sample over the bare sample taken just before it: the load of
    /// the machine moves less within a pair than over the run.
    var pairedRatio: Double {
        Samples.median(zip(coldNanoseconds, bareNanoseconds).map { Double($0) / Double(max($1, 1)) }) ?? 0
    }

    /// The report's lines.
    func text() -> [String] {
        guard !bareNanoseconds.isEmpty else { return [] }
        var lines = floorRows("browser window", floor: "bare WebKitWebView, spawn → first paint")
        lines += [
            String(
                format: "  Browse → window's first paint, cold (activation, %d samples) %.1f ms (%.2f× floor)",
                coldNanoseconds.count, coldMilliseconds, coldRatio),
            String(format: "  median of the paired ratios cold / bare (sample by sample)   %.2f×", pairedRatio),
        ]
        if !warmNanoseconds.isEmpty {
            lines.append(
                String(
                    format: "  Browse → window's first paint, warm (%d samples)            %.1f ms (%.2f× floor)",
                    warmNanoseconds.count, warmMilliseconds, warmRatio))
        }
        return lines
    }
}
