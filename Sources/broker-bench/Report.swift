// The results table (each figure with its ratio to the Ping timed alternating with it), the targets, and the JSON file.
import DBus
import Foundation

/// The medians of every figure per size, printed and written as JSON.
struct Report: Codable {
    struct Target: Codable {
        var name: String
        var measured: String
        var limit: String
        var met: Bool
    }

    var sizes: [Int]
    var runs: Int
    var callsPerFigure: Int
    var method: String
    /// size → figure name → median figure over the runs.
    var medians: [String: [String: Figure]]
    /// size → figure name → each run's figure.
    var perRun: [String: [String: [Figure]]]
    var targets: [Target] = []
    /// Issue 15's share-sheet figures, when measured.
    var share: ShareFigures?
    /// Issue 16's browser-window figures, when measured.
    var browse: BrowseFigures?

    static let method = """
        Client: the DBus module's BlockingConnection (no event loop), one private connection per \
        role, synchronous round trips (libdbus's dbus_connection_send_with_reply_and_block on a \
        call encoded once), one call outstanding; the sample is \
        monotonic time around the call, including the daemon's routing both ways. \
        Perform → Finished: the Perform reply, then reading until the job's unicast Finished. \
        Storm: 40 connections on 40 threads, each sends its 250 RegisterActivity calls at once \
        and reads the replies; wall time from release to the last reply. \
        Ratios: each latency figure is timed alternating with Peer.Ping in blocks of \
        \(PairedTiming.block) calls (Ping, figure, Ping, ...); its ratio is to those Pings \
        (JSON: "<figure>.ping"); the floor row pools every pair's Pings and is the during-storm rows' floor.
        """

    init(sizes: [Int], runs: Int, callsPerFigure: Int, results: [[Int: [String: Figure]]]) {
        self.sizes = sizes
        self.runs = runs
        self.callsPerFigure = callsPerFigure
        method = Self.method
        var medians: [String: [String: Figure]] = [:]
        var perRun: [String: [String: [Figure]]] = [:]
        for size in sizes {
            var byName: [String: [Figure]] = [:]
            for run in results { for (name, figure) in run[size] ?? [:] { byName[name, default: []].append(figure) } }
            perRun["\(size)"] = byName
            medians["\(size)"] = byName.mapValues(Figure.median)
        }
        self.medians = medians
        self.perRun = perRun
        targets = evaluateTargets()
    }

    /// Adds the share-sheet figures and their targets: the sheet's cold first frame within 1.5×
    /// a bare GTK 4 window's, and no broker RSS growth over the Share/cancel cycles once the
    /// finished jobs' 60 s retention is full (from the first quarter of the cycles to the end,
    /// at most 1 MB).
    mutating func add(share figures: ShareFigures) {
        share = figures
        guard addFloorTarget("Share → sheet's first frame (cold) / bare GTK 4 window's first frame", figures, limit: 1.5)
        else { return }
        if figures.rss.count >= 3, let last = figures.rss.last {
            let quarter = figures.rss[1]
            let growth = (last.broker - quarter.broker) / 1024
            targets.append(
                Target(
                    name: "broker VmRSS growth from \(quarter.cycles) to \(last.cycles) Share/cancel cycles",
                    measured: String(format: "%+.1f MB (%.1f → %.1f MB; %.1f MB before any)", growth, quarter.broker / 1024, last.broker / 1024, figures.rss[0].broker / 1024),
                    limit: "≤ 1 MB", met: growth <= 1))
        }
    }

    /// Adds the browser window's figures and their target: Browse → the window's first paint
    /// of the page (cold) within 1.3× a bare WebKitWebView's first paint of the same page.
    mutating func add(browse figures: BrowseFigures) {
        browse = figures
        addFloorTarget("Browse → window's first paint (cold) / bare WebKitWebView's first paint", figures, limit: 1.3)
    }

    private func figure(_ size: Int, _ name: String) -> Figure? { medians["\(size)"]?[name] }

    /// The median over runs of each run's ratio (figure p50 or p99 to the Ping timed with it).
    func ratio(_ size: Int, _ name: String, p99: Bool = false) -> Double? {
        guard let figures = perRun["\(size)"]?[name], let pings = pairedFloor(size, name),
            figures.count == pings.count
        else { return nil }
        return Samples.median(
            zip(figures, pings).map { figure, ping in
                p99 ? figure.p99Microseconds / ping.p99Microseconds : figure.p50Microseconds / ping.p50Microseconds
            })
    }

    private func evaluateTargets() -> [Target] {
        var targets: [Target] = []
        func add(_ name: String, _ value: Double?, _ limit: Double, _ unit: String) {
            guard let value else { return }
            let shown = unit == "×" ? String(format: "%.2f×", value) : String(format: "%.1f %@", value, unit)
            let limitShown = unit == "×" ? String(format: "≤ %.1f×", limit) : String(format: "≤ %.0f %@", limit, unit)
            targets.append(Target(name: name, measured: shown, limit: limitShown, met: value <= limit))
        }
        for (size, limit) in [(1000, 1.5), (10_000, 2.0)] where sizes.contains(size) {
            add("ListActivities (15) p50 at \(size) / Ping p50", ratio(size, "list15"), limit, "×")
            add("ListActivities (60) p50 at \(size) / Ping p50", ratio(size, "list60"), limit, "×")
        }
        if sizes.contains(10_000) {
            add("ListActivities (15) p99 at 10000 / Ping p99", ratio(10_000, "list15", p99: true), 3, "×")
            add("ListActivities (60) p99 at 10000 / Ping p99", ratio(10_000, "list60", p99: true), 3, "×")
        }
        for size in sizes {
            add("Perform→Finished, dynamic provider, at \(size) / Ping p50", ratio(size, "performProvider"), 3, "×")
        }
        for size in sizes {
            add("10,000 RegisterActivity from 40 connections at \(size)", figure(size, "storm").map { $0.p50Microseconds / 1e6 }, 2, "s")
        }
        targets += StormVictim.targets(self)
        for (name, value, limit, unit) in issue14Targets() { add(name, value, limit, unit) }
        if sizes.contains(1000) {
            add("start with 1,000 manifests to name owned", figure(1000, "start").map { $0.p50Microseconds / 1000 }, 100, "ms")
        }
        if sizes.contains(10_000) {
            add("broker RSS with 10,000 activities", figure(10_000, "rss")?.value.map { $0 / 1024 }, 20, "MB")
            add("broker RSS after 10,000 Performs", figure(10_000, "rssAfterPerforms")?.value.map { $0 / 1024 }, 25, "MB")
        }
        return targets
    }

    // MARK: Text

    private static let rows: [(String, String, Kind)] = [
        ("ping", "Peer.Ping (floor, all pairs)", .latency),
        ("list15Distinct", "ListActivities, 15, distinct URLs", .latency),
        ("list60Distinct", "ListActivities, 60, distinct URLs", .latency),
        ("list15", "ListActivities, 15, same URL (cache)", .latency),
        ("list60", "ListActivities, 60, same URL (cache)", .latency),
        ("echo15", "same 15 records, bench echo", .latency),
        ("echo60", "same 60 records, bench echo", .latency),
        ("performOpen", "Perform→Finished, open (/bin/true)", .latency),
        ("performProvider", "Perform→Finished, dynamic provider", .latency),
        ("storm", "10,000 RegisterActivity, 40 conns", .wall),
        ("listDuringStorm", "ListActivities (60) during storm", .latency),
        ("busDuringStorm", "bus GetId during storm (daemon)", .latency),
        ("pingDuringStorm", "broker Peer.Ping during storm", .latency),
        ("listAfterStorm", "ListActivities (60) after storm", .latency),
        ("stormSignals", "ActivitiesChanged sent in storm", .count),
        ("start", "start to name owned (N+M manifests)", .start),
        ("rss", "broker VmRSS (N+M activities)", .memory),
        ("rssAfterPerform", "broker VmRSS after Performs (+jobs)", .memory),
        ("rssAfterStorm", "broker VmRSS after storm (+10,000)", .memory),
        ("rssBeforePerforms", "fresh broker VmRSS, before Performs", .memory),
        ("rssAfterPerforms", "same, after 10,000 Performs", .memory),
        ("performPaired", "same, Perform→Finished, provider", .latency),
        ("pingPaired", "same, Ping after each Perform", .latency),
    ]

    private enum Kind { case latency, wall, start, memory, count }

    /// The table: one line per figure, one column per size.
    func text() -> String {
        let width = 34
        let column = 44
        func pad(_ text: String, _ n: Int) -> String {
            text.count >= n ? text : text + String(repeating: " ", count: n - text.count)
        }
        var lines: [String] = []
        // `--share-only`: no registry sizes, no table.
        if sizes.isEmpty {
            lines += share?.text() ?? []
            lines += browse?.text() ?? []
            lines.append("")
            lines.append("targets:")
            for target in targets {
                lines.append("  [\(target.met ? "met " : "MISS")] \(target.name): \(target.measured) (\(target.limit))")
            }
            return lines.joined(separator: "\n")
        }
        lines.append(pad("figure (median of \(runs) run\(runs == 1 ? "" : "s"))", width) + sizes.map { pad("| N+M = \($0)", column) }.joined())
        lines.append(String(repeating: "-", count: width + column * sizes.count))
        for (name, title, kind) in Self.rows {
            var cells: [String] = []
            for size in sizes {
                guard let f = figure(size, name) else {
                    cells.append("| —")
                    continue
                }
                switch kind {
                case .latency:
                    let r50 = ratio(size, name).map { String(format: "%.2f×", $0) } ?? "-"
                    let r99 = ratio(size, name, p99: true).map { String(format: "%.2f×", $0) } ?? "-"
                    let floor = figure(size, PairedTiming.floorName(name)).map { String(format: " (%.0f)", $0.p50Microseconds) } ?? ""
                    cells.append(
                        String(format: "| %.0f/%.0f µs %@/%@%@ %.0f/s", f.p50Microseconds, f.p99Microseconds, r50, r99, floor, f.callsPerSecond))
                case .wall:
                    let pingRate = figure(size, "ping")?.callsPerSecond ?? 0
                    cells.append(
                        String(format: "| %.2f s, %.0f/s (%.2f× Ping/s)", f.p50Microseconds / 1e6, f.callsPerSecond, f.callsPerSecond / max(pingRate, 1)))
                case .start:
                    let ping = figure(size, "ping")?.p50Microseconds ?? 1
                    cells.append(String(format: "| %.1f ms (%.0f× Ping p50)", f.p50Microseconds / 1000, f.p50Microseconds / ping))
                case .memory:
                    cells.append(String(format: "| %.1f MB", (f.value ?? 0) / 1024))
                case .count:
                    cells.append(String(format: "| %.0f", f.value ?? 0))
                }
            }
            lines.append(pad(title, width) + cells.map { pad($0, column) }.joined())
        }
        lines.append("")
        lines.append(
            "latency cells: p50/p99, ratio to the p50/p99 of the Ping timed alternating with that figure (its p50 µs in brackets; the during-storm rows: the floor row's), calls/s (median over runs)")
        lines.append("method: " + method)
        if let share, !share.bareNanoseconds.isEmpty {
            lines.append("")
            lines += share.text()
        }
        if let browse, !browse.bareNanoseconds.isEmpty {
            lines.append("")
            lines += browse.text()
        }
        lines.append("")
        lines.append("targets:")
        for target in targets {
            lines.append("  [\(target.met ? "met " : "MISS")] \(target.name): \(target.measured) (\(target.limit))")
        }
        return lines.joined(separator: "\n")
    }

    /// Writes the report as JSON.
    func write(json path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
