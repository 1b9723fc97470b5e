// What the share-sheet and browser-window figures share: samples against a bare floor program, and their medians and ratios.
import Foundation

/// First-frame or first-paint samples of a UI service against its floor (a bare GTK 4 window,
/// a bare WebKitWebView started the same way), in nanoseconds. `ShareFigures` and
/// `BrowseFigures` keep their own samples (and JSON keys); the figures drawn from them are
/// computed here once.
protocol FloorFigures {
    /// The GSK renderer the service and its floor used.
    var renderer: String { get }
    /// spawn → the floor program's first frame or paint.
    var bareNanoseconds: [UInt64] { get }
    /// The call → the service's first frame or paint, the service not running (activation included).
    var coldNanoseconds: [UInt64] { get }
    /// The same with the service running.
    var warmNanoseconds: [UInt64] { get }
}

extension FloorFigures {
    var bareMilliseconds: Double { Samples.median(bareNanoseconds) / 1e6 }
    var coldMilliseconds: Double { Samples.median(coldNanoseconds) / 1e6 }
    var warmMilliseconds: Double { Samples.median(warmNanoseconds) / 1e6 }
    var warmP99Milliseconds: Double { Samples.percentile(warmNanoseconds, 0.99) / 1e6 }
    /// The issues' figure: cold call → first frame or paint over the floor's.
    var coldRatio: Double { coldMilliseconds / max(bareMilliseconds, 1e-9) }
    var warmRatio: Double { warmMilliseconds / max(bareMilliseconds, 1e-9) }

    /// The first rows of a report: `title` with the renderer, then the floor's median (`floor`
    /// names the floor program and its event).
    func floorRows(_ title: String, floor: String) -> [String] {
        [
            "\(title) (GSK_RENDERER=\(renderer), medians):",
            String(
                format: "  \(floor) (floor, %d samples)   %.1f ms", bareNanoseconds.count, bareMilliseconds),
        ]
    }
}

/// Order statistics of nanosecond samples.
enum Samples {
    /// The median (the mean of the middle two for an even count); 0 for none.
    static func median(_ samples: [UInt64]) -> Double {
        median(samples.map(Double.init)) ?? 0
    }

    /// The median (the mean of the middle two for an even count); nil for none. The one
    /// definition every median of the bench uses: figures over runs, ratios over runs or pairs.
    static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The nearest-rank `p` percentile; 0 for none.
    static func percentile(_ samples: [UInt64], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return Double(sorted[min(max(rank, 0), sorted.count - 1)])
    }
}

extension Report {
    /// Adds the UI figures' target `name`: the cold median within `limit` times the floor's.
    /// False, adding nothing, when the floor was not measured (no display, no GTK).
    @discardableResult
    mutating func addFloorTarget(_ name: String, _ figures: some FloorFigures, limit: Double) -> Bool {
        guard !figures.bareNanoseconds.isEmpty else { return false }
        targets.append(
            Target(
                name: name,
                measured: String(
                    format: "%.2f× (%.0f / %.0f ms)", figures.coldRatio, figures.coldMilliseconds,
                    figures.bareMilliseconds),
                limit: String(format: "≤ %.1f×", limit), met: figures.coldRatio <= limit))
        return true
    }
}

/// Runs one group of UI figures (`what`: "share-sheet"): false, after saying why, when it
/// failed. The registry figures stand without them (no Xvfb or GTK here): the bench reports
/// rather than aborts, unless they were all it was asked for (`main` decides).
func measureUIFigures(_ what: String, _ run: () throws -> Void) -> Bool {
    do {
        try run()
        return true
    } catch {
        say("broker-bench: \(what) figures not measured: \(error)")
        return false
    }
}
