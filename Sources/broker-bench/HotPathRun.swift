// `--hot-paths`: issue 14's two hot paths only, taken interleaved with Ping, from the Swift bench client and from a C client.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Ping, `ListActivities` with a distinct URL (15 and 60 records), the bench's echo of the same
/// answers and Perform → Finished through the bench's provider, one of each per round, so that
/// every ratio compares figures taken under the same load (the machine is shared). Then the
/// same from `scripts/hotpath-client.c` (plain libdbus: a C echo and a C provider), which
/// shows what the broker alone costs. Fast enough to profile the broker under
/// `BROKER_BENCH_WRAP=scripts/perf-wrap.sh` (valgrind's callgrind aborts on this broker).
struct HotPathRun {
    /// The registry size and the rounds to time.
    let total, calls: Int
    /// The bus, and where the manifests and the C client go.
    let address, scratch: String
    let launcher: BrokerLauncher
    /// The bus daemon, whose CPU per call is reported next to the broker's.
    let daemonPID: pid_t

    /// The figures in the order of a round.
    static let names = ["ping", "list15Distinct", "list60Distinct", "echo15", "echo60", "performProvider"]

    /// `BROKER_BENCH_HOT=performProvider,c`: only these figures (Ping always), and the C client
    /// only when `c` is named; unset, all of them. For profiles of one path.
    static let only: Set<String>? = ProcessInfo.processInfo.environment["BROKER_BENCH_HOT"].map {
        Set($0.split(separator: ",").map(String.init))
    }

    func run() throws -> [String] {
        let sizeRun = SizeRun(
            total: total, counts: CallCounts(latency: calls, perform: calls, storm: 0, stormConnections: 1, starts: 0),
            address: address, scratch: scratch, launcher: launcher)
        let manifestDirectory = scratch + "/hot-\(total)/manifests"
        try Workload.writeManifests(into: manifestDirectory, range: 0..<sizeRun.workload.manifests)
        let measured = try MeasuredBroker(sizeRun: sizeRun, manifestDirectory: manifestDirectory)
        let broker = measured.process
        defer { try? launcher.stop(broker) }
        let (provider, client) = (measured.provider, measured.client)

        var round: [() throws -> Void] = []
        let ping = try SizeRun.pingCall()
        round.append { try client.callDiscardingReply(ping) }
        let rounds = calls / 10 + 20 + calls
        var index = 0
        for (url, expected) in [(Workload.urlA, Workload.expectedA), (Workload.urlB, Workload.expectedB)] {
            let listed = try client.call(try SizeRun.listCall(url)).body.first?.array?.count ?? -1
            guard listed == expected else { throw BenchFailure("\(url) lists \(listed), designed for \(expected)") }
            // Encoded before the clock starts, as `DistinctURLs` does.
            let lists = try (0..<rounds).map { try SizeRun.listCall(DistinctURLs.url(url, 5_000_000 + $0)) }
            round.append { try client.callDiscardingReply(lists[index]) }
        }
        for url in [Workload.urlA, Workload.urlB] {
            let count = try provider.captureEcho(url: url)
            let echo = try EncodedCall(
                ProviderService.records.call(
                    try BusName(provider.connection.uniqueName), path: ProviderService.path, body: [.uint32(UInt32(count))]))
            round.append { try client.callDiscardingReply(echo) }
        }
        let perform = try EncodedCall(
            Broker1.call(
                Broker1.perform,
                [.string(Workload.providerActivity), .vardict([ItemKey.url: .string(Workload.providerURL)]), .vardict([:])]))
        round.append { try SizeRun.performAndWait(client, perform) }

        // Ping always (the ratios' floor), the others as `BROKER_BENCH_HOT` names them.
        let selected = Self.names.indices.filter { $0 == 0 || Self.only?.contains(Self.names[$0]) ?? true }
        // Untimed warm-up rounds, then the timed ones.
        var samples = [[UInt64]](repeating: [], count: round.count)
        for number in (calls - rounds)..<calls {
            for (figure, body) in round.enumerated() where selected.contains(figure) {
                let start = monotonicNanoseconds()
                try body()
                if number >= 0 { samples[figure].append(monotonicNanoseconds() - start) }
            }
            index += 1
        }
        // CPU time and wake-ups per call of the broker (all its threads), the daemon, the bench's
        // client (its main thread) and its provider (the other threads: its connection's loop):
        // their work, whatever the load on the machine does to the latencies.
        let parties: [(pid: pid_t, threads: ProcessUsage.Threads)] = [
            (broker.pid, .all), (daemonPID, .all), (getpid(), .main), (getpid(), .others),
        ]
        var usage: [[(cpuMicroseconds: Double, wakes: Double)]] = []
        for (figure, body) in round.enumerated() where selected.contains(figure) {
            index = 0
            let before = parties.map { ProcessUsage.read($0.pid, $0.threads) }
            for _ in 0..<calls {
                try body()
                index += 1
            }
            usage.append(zip(parties, before).map { ProcessUsage.read($0.0.pid, $0.0.threads).perCall(since: $0.1, calls: calls) })
        }
        let figures = samples.map { Figure(samples: $0, wallNanoseconds: 0) }
        var lines = [
            "[\(total)] Swift client, \(calls) interleaved rounds; then CPU µs and wake-ups per call of the broker, the daemon, the bench's client and its provider, \(calls) calls each:"
        ]
        for (number, figure) in selected.enumerated() {
            let used = usage[number]
            lines.append(
                "  " + Self.names[figure].padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(
                        format: " p50 %7.1f µs  p99 %7.1f µs  %.2f× Ping   CPU µs/call: broker %6.1f daemon %6.1f client %6.1f provider %6.1f   wakes/call: %.1f %.1f %.1f %.1f",
                        figures[figure].p50Microseconds, figures[figure].p99Microseconds,
                        figures[figure].p50Microseconds / figures[0].p50Microseconds,
                        used[0].cpuMicroseconds, used[1].cpuMicroseconds, used[2].cpuMicroseconds, used[3].cpuMicroseconds,
                        used[0].wakes, used[1].wakes, used[2].wakes, used[3].wakes))
        }
        if Self.only == nil || Self.only!.contains("c") { lines += try cClient(offset: 6_000_000) }
        withExtendedLifetime(measured) {}
        return lines
    }

    /// Builds and runs the C client (`cc` and `pkg-config dbus-1` needed); its figures as lines,
    /// or a line saying why there are none.
    private func cClient(offset: Int) throws -> [String] {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/hotpath-client.c").path
        let binary = scratch + "/hotpath-client"
        let build = try shell("cc -O2 -o '\(binary)' '\(source)' $(pkg-config --cflags --libs dbus-1) -lpthread")
        guard build.status == 0 else { return ["[\(total)] C client not built: \(build.output)"] }
        let run = try shell(
            "'\(binary)' '\(address)' \(calls) '\(Workload.urlA)' \(Workload.expectedA) '\(Workload.urlB)' \(Workload.expectedB) \(offset)"
        )
        guard run.status == 0 else { return ["[\(total)] C client failed: \(run.output)"] }
        var lines = ["[\(total)] C client (C echo, C provider), \(calls) interleaved rounds:"]
        for line in run.output.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 4 else { continue }
            lines.append("  \(words[0].padding(toLength: 16, withPad: " ", startingAt: 0)) p50 \(words[1]) µs  p99 \(words[2]) µs  \(words[3])× Ping")
        }
        return lines
    }

    /// Runs `command` with /bin/sh; its exit status and its output (stdout and stderr).
    private func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>&1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
