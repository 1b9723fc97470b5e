// broker-bench: starts a private bus and the real broker, measures issue #7's figures, prints the table (and JSON).
import DBus
import Foundation
import TestSupport

let usage = """
    Usage: broker-bench [--quick] [--runs K] [--sizes 100,1000,10000] [--calls N] [--json FILE]
                        [--share-cycles N] [--share-only] [--browse-samples N] [--browse-only]

    Starts a private dbus-daemon and the release activity-broker next to this binary, and
    measures Ping, ListActivities, Perform → Finished, a RegisterActivity storm, start-up and
    RSS for each registry size N+M (see BENCHMARKS.md).
      --quick        1 run, 1,000 calls per figure, 2,000 Performs, 2 starts
      --runs K       repeat everything K times and report medians (default 1)
      --sizes LIST   registry sizes N+M (default 100,1000,10000)
      --calls N      calls per latency figure (default 5000)
      --json FILE    also write the results as JSON
      --share-cycles N  Share/cancel cycles for the share sheet's warm first frame and the
                     broker's RSS (default 1000; 0 skips the share-sheet figures, which need
                     Xvfb, activity-sheet and gtk-first-frame next to this binary)
      --share-only   only the share-sheet figures
      --browse-samples N  Browse → first paint samples, cold and warm, and as many of a bare
                     WebKitWebView (default 20; 0 skips them; they need Xvfb, python3,
                     activity-browser and webkit-first-paint next to this binary)
      --browse-only  only the browser-window figures
      --storm R      only the registration storm, R storms per size (a fresh broker each), the
                     victim at 60 and 15 records with both probes (StormRun.swift)
      --bus LIST     dbus-daemon (default), dbus-broker, or both (dbus-daemon,dbus-broker: the
                     storm on each); other figures use the first
      --hot-paths    only ListActivities (distinct URLs) and Perform → Finished, interleaved
                     with Ping, from the bench and from a C client (HotPathRun.swift)
      --memory       only the broker's VmRSS, Pss and private memory, with N+M activities and
                     before/after 10,000 Performs (MemoryRun.swift)
    """

var counts = CallCounts.full
var runs = 1
var sizes = [100, 1000, 10_000]
var jsonPath: String?
var shareCycles = 1000
var shareOnly = false
var browseSamples = 20
var browseOnly = false
var hotPaths = false
var memoryOnly = false
var stormRepeats = 0
var buses: [BusKind] = [.dbusDaemon]
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(_ flag: String) -> String {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("broker-bench: \(flag) needs a value\n\n\(usage)\n".utf8))
        exit(2)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        runs = 1
        counts = .quick
    case "--runs": runs = max(1, Int(value(argument)) ?? 1)
    case "--sizes": sizes = value(argument).split(separator: ",").compactMap { Int($0) }
    case "--calls":
        counts.latency = max(100, Int(value(argument)) ?? 5000)
        counts.perform = counts.latency
    case "--json": jsonPath = value(argument)
    case "--share-cycles": shareCycles = max(0, Int(value(argument)) ?? 1000)
    case "--share-only": shareOnly = true
    case "--browse-samples": browseSamples = max(0, Int(value(argument)) ?? 20)
    case "--browse-only": browseOnly = true
    case "--hot-paths": hotPaths = true
    case "--memory": memoryOnly = true
    case "--storm": stormRepeats = max(1, Int(value(argument)) ?? 1)
    case "--bus":
        buses = value(argument).split(separator: ",").map { BusKind(rawValue: String($0)) ?? .dbusDaemon }
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("broker-bench: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(2)
    }
}

func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

do {
    if stormRepeats > 0 {
        for kind in buses {
            let bus = try kind.start()
            let launcher = try BrokerLauncher(bus: bus)
            for size in sizes {
                let lines = try StormRun(
                    total: size, repeats: stormRepeats, address: bus.address,
                    scratch: bus.directory + "/storm", launcher: launcher, busName: kind.rawValue
                ).run()
                print(lines.joined(separator: "\n"))
            }
            bus.stop()
        }
        exit(0)
    }
    let bus = try buses[0].start()
    let scratch = bus.directory + "/bench"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let launcher = try BrokerLauncher(bus: bus)
    say("broker-bench: bus \(bus.address), broker \(launcher.executable), \(runs) run(s), sizes \(sizes)")
    var results: [[Int: [String: Figure]]] = []
    let began = monotonicNanoseconds()
    if hotPaths {
        for size in sizes {
            let lines = try HotPathRun(
                total: size, calls: counts.latency, address: bus.address, scratch: scratch + "/hot", launcher: launcher,
                daemonPID: bus.daemonPID
            ).run()
            print(lines.joined(separator: "\n"))
        }
        exit(0)
    }
    if memoryOnly {
        for size in sizes {
            let lines = try MemoryRun(total: size, address: bus.address, scratch: scratch + "/memory", launcher: launcher).run()
            print(lines.joined(separator: "\n"))
        }
        exit(0)
    }
    if shareOnly || browseOnly { sizes = [] }
    for run in 1...runs where !sizes.isEmpty {
        say("run \(run) of \(runs)")
        var byRun: [Int: [String: Figure]] = [:]
        for size in sizes {
            let sizeRun = SizeRun(total: size, counts: counts, address: bus.address, scratch: scratch + "/run\(run)", launcher: launcher)
            try sizeRun.run()
            byRun[size] = sizeRun.figures
        }
        results.append(byRun)
    }
    var report = Report(sizes: sizes, runs: runs, callsPerFigure: counts.latency, results: results)
    if (shareCycles > 0 && !browseOnly) || shareOnly {
        say("share sheet: \(shareCycles) Share/cancel cycles")
        let shareRun = ShareRun(cycles: shareCycles, scratch: scratch + "/share")
        let measured = measureUIFigures("share-sheet") {
            try shareRun.run()
            report.add(share: shareRun.figures)
        }
        if !measured, shareOnly { exit(1) }
    }
    if (browseSamples > 0 && !shareOnly) || browseOnly {
        say("browser window: \(max(browseSamples, 1)) Browse → first paint samples")
        let browseRun = BrowseRun(samples: max(browseSamples, 1), scratch: scratch + "/browse")
        let measured = measureUIFigures("browser-window") {
            try browseRun.run()
            report.add(browse: browseRun.figures)
        }
        if !measured, browseOnly { exit(1) }
    }
    print(report.text())
    print(String(format: "total bench time %.0f s", Double(monotonicNanoseconds() - began) / 1e9))
    if let jsonPath {
        try report.write(json: jsonPath)
        say("wrote \(jsonPath)")
    }
    bus.stop()
} catch {
    say("broker-bench: \(error)")
    exit(1)
}
