// One measured size: start the broker with its registry, then every figure of issue #7 against it.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// How many calls each figure takes.
struct CallCounts: Sendable {
    /// Calls per latency figure, Performs per Perform figure, registrations in the storm and
    /// the connections sending them, broker starts for the start-up figure.
    var latency, perform, storm, stormConnections, starts: Int

    /// The full measurement (BENCHMARKS.md).
    static let full = CallCounts(latency: 5000, perform: 5000, storm: 10_000, stormConnections: 40, starts: 5)
    /// `--quick`: 1,000 calls per figure, 2,000 Performs, 2 starts.
    static let quick = CallCounts(latency: 1000, perform: 2000, storm: 10_000, stormConnections: 40, starts: 2)
}

/// Runs every measurement for one registry size on an already running bus.
final class SizeRun {
    let workload: Workload
    let counts: CallCounts
    let address: String
    let scratch: String
    let launcher: BrokerLauncher
    private(set) var figures: [String: Figure] = [:]
    private(set) var notes: [String] = []

    init(total: Int, counts: CallCounts, address: String, scratch: String, launcher: BrokerLauncher) {
        workload = Workload(total: total)
        self.counts = counts
        self.address = address
        self.scratch = scratch
        self.launcher = launcher
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("  [\(workload.total)] \(text)\n".utf8))
    }

    /// A broker method call encoded once, to be sent as often as a figure needs.
    private static func brokerCall(_ method: MethodSignature, _ body: [Value]) throws -> EncodedCall {
        try EncodedCall(Broker1.call(method, body))
    }

    /// `Peer.Ping` to the broker: the floor every ratio of the bench is to.
    static func pingCall() throws -> EncodedCall {
        try EncodedCall(MethodCall(destination: Broker1.busName, path: Broker1.objectPath, interface: .peer, member: "Ping"))
    }

    /// `ListActivities` for `url` with no options.
    static func listCall(_ url: String) throws -> EncodedCall {
        try brokerCall(Broker1.listActivities, [.vardict([ItemKey.url: .string(url)]), .vardict([:])])
    }

    func run() throws {
        let base = scratch + "/size-\(workload.total)"
        let manifestDirectory = base + "/manifests"
        let extraDirectory = base + "/manifests-extra"
        try Workload.writeManifests(into: manifestDirectory, range: 0..<workload.manifests)
        try Workload.writeManifests(into: extraDirectory, range: workload.manifests..<workload.total)

        // 5. Start-up with `total` manifests (both directories), several times; median.
        var startTimes: [UInt64] = []
        for _ in 0..<counts.starts {
            let (process, elapsed) = try launcher.start(extensionDirectories: [manifestDirectory, extraDirectory])
            startTimes.append(elapsed)
            try launcher.stop(process)
        }
        startTimes.sort()
        figures["start"] = Figure(wallNanoseconds: startTimes[startTimes.count / 2])
        progress("start with \(workload.total) manifests: \(startTimes.map { $0 / 1000 }) µs")
        figures.merge(
            try PerformMemoryRun(address: address, launcher: launcher, extensionDirectories: [manifestDirectory, extraDirectory]).run()
        ) { $1 }

        // The measured broker: `manifests` from files plus `dynamic` registrations.
        let measured = try MeasuredBroker(sizeRun: self, manifestDirectory: manifestDirectory)
        let broker = measured.process
        defer { try? launcher.stop(broker) }
        let (provider, client) = (measured.provider, measured.client)
        try checkCounts(client)
        // The registry loaded and its answers cached, before any job exists.
        for url in [Workload.urlA, Workload.urlB, Workload.providerURL] {
            try client.callDiscardingReply(try Self.listCall(url))
        }
        figures["rss"] = Figure(value: BrokerLauncher.residentKilobytes(of: broker.pid))

        // 1. The floor: Peer.Ping, timed alternating with each figure below (PairedTiming).
        let paired = try PairedTiming(client: client)

        // 2. ListActivities.
        let listA = try Self.listCall(Workload.urlA)
        let listB = try Self.listCall(Workload.urlB)
        try paired.time("list15", counts.latency, into: &figures) { try client.callDiscardingReply(listA) }
        try paired.time("list60", counts.latency, into: &figures) { try client.callDiscardingReply(listB) }
        progress("list p50 \(figures["list15"]!.p50Microseconds) / \(figures["list60"]!.p50Microseconds) µs")
        for (name, url, expected) in [
            ("list15Distinct", Workload.urlA, Workload.expectedA), ("list60Distinct", Workload.urlB, Workload.expectedB),
        ] {
            let call = try DistinctURLs.caller(client, url: url, expected: expected, count: counts.latency)
            try paired.time(name, counts.latency, warmUp: DistinctURLs.warmUp, into: &figures, call)
        }
        progress("list, distinct URLs, p50 \(figures["list15Distinct"]!.p50Microseconds) / \(figures["list60Distinct"]!.p50Microseconds) µs")

        // The same answers echoed by the bench's own DBus-module service: the reply-size floor.
        for (url, name) in [(Workload.urlA, "echo15"), (Workload.urlB, "echo60")] {
            let count = try provider.captureEcho(url: url)
            let echo = try EncodedCall(
                ProviderService.records.call(
                    try BusName(provider.connection.uniqueName), path: ProviderService.path, body: [.uint32(UInt32(count))]))
            try paired.time(name, counts.latency, into: &figures) { try client.callDiscardingReply(echo) }
        }
        progress("echo p50 \(figures["echo15"]!.p50Microseconds) / \(figures["echo60"]!.p50Microseconds) µs")

        // 3. Perform → Finished.
        let performOpen = try Self.brokerCall(
            Broker1.perform,
            [.string(Workload.openActivity), .vardict([ItemKey.url: .string(Workload.urlA)]), .vardict([:])])
        let performProvider = try Self.brokerCall(
            Broker1.perform,
            [.string(Workload.providerActivity), .vardict([ItemKey.url: .string(Workload.providerURL)]), .vardict([:])])
        try paired.time("performOpen", counts.perform, warmUp: 50, into: &figures) {
            try Self.performAndWait(client, performOpen)
        }
        try paired.time("performProvider", counts.perform, warmUp: 50, into: &figures) {
            try Self.performAndWait(client, performProvider)
        }
        progress(
            "perform p50 open \(figures["performOpen"]!.p50Microseconds) µs, provider \(figures["performProvider"]!.p50Microseconds) µs"
        )
        // Each Perform leaves a job object exported for 60 s (API.md §6): thousands here.
        figures["rssAfterPerform"] = Figure(value: BrokerLauncher.residentKilobytes(of: broker.pid))

        // 4. The registration storm, with ListActivities running through it, then after it.
        try storm(client: client, list: listB)
        try paired.time("listAfterStorm", counts.latency, into: &figures) { try client.callDiscardingReply(listB) }
        figures["ping"] = paired.floor
        progress("ping p50, all pairs, \(figures["ping"]!.p50Microseconds) µs")
        figures["rssAfterStorm"] = Figure(value: BrokerLauncher.residentKilobytes(of: broker.pid))
        progress(
            "storm \(figures["storm"]!.p50Microseconds / 1000) ms; list p99 during \(figures["listDuringStorm"]!.p99Microseconds) µs, after \(figures["listAfterStorm"]!.p99Microseconds) µs"
        )
        withExtendedLifetime(measured) {}
    }

    /// Registers the `dynamic` activities from several connections (pipelined); returns the connections.
    func registerDynamic() throws -> [BlockingConnection] {
        let connections = try (0..<workload.dynamicConnections).map { _ in try BlockingConnection(address: address) }
        var expected = [Int](repeating: 0, count: connections.count)
        for index in 0..<workload.dynamic {
            let slot = index % connections.count
            connections[slot].send(try Self.brokerCall(Broker1.registerActivity, [.vardict(Workload.registration(index))]))
            expected[slot] += 1
        }
        for (slot, connection) in connections.enumerated() {
            connection.flush()
            try Self.awaitReplies(connection, expected[slot], what: "RegisterActivity")
        }
        return connections
    }

    /// Reads until `count` method replies arrived; throws on the first error reply.
    static func awaitReplies(_ connection: BlockingConnection, _ count: Int, what: String) throws {
        var replies = 0
        let deadline = ContinuousClock.now + .seconds(120)
        while replies < count {
            guard let message = connection.next(until: deadline) else {
                throw BenchFailure("\(what): \(replies) of \(count) replies within 120 s")
            }
            switch message.kind {
            case .error: throw BenchFailure("\(what) failed: \(message.body.first?.string ?? "?")")
            case .methodReturn: replies += 1
            default: break
            }
        }
    }

    /// Checks that the measured URLs list the designed number of activities.
    private func checkCounts(_ client: BlockingConnection) throws {
        for (url, expected) in [(Workload.urlA, Workload.expectedA), (Workload.urlB, Workload.expectedB)] {
            let count = try client.call(try Self.listCall(url)).body.first?.array?.count ?? -1
            if count != expected {
                throw BenchFailure("ListActivities(\(url)) gave \(count) activities, designed for \(expected)")
            }
        }
    }

    /// Perform, then read until the job's unicast `Finished` arrives; throws unless it completed.
    static func performAndWait(_ client: BlockingConnection, _ call: EncodedCall) throws {
        let job = try client.call(call).body.first?.objectPath?.rawValue ?? ""
        let deadline = ContinuousClock.now + .seconds(30)
        while let message = client.next(until: deadline) {
            guard message.member == Job1.finished.name.rawValue, message.path == job else { continue }
            let state = message.body.first?.string
            guard state == JobState.completed.rawValue else {
                throw BenchFailure("job \(job) ended \(state ?? "?")")
            }
            return
        }
        throw BenchFailure("no Finished for \(job) within 30 s")
    }

    /// 10,000 RegisterActivity calls from 40 connections, each sending all of its calls at once
    /// (one thread per connection); ListActivities runs on `client` until the last reply.
    private func storm(client: BlockingConnection, list: EncodedCall) throws {
        let flood = try StormFlood(address: address, calls: counts.storm, connectionCount: counts.stormConnections)
        let listener = try BlockingConnection(address: address)
        try listener.addMatch(Broker1.activitiesChanged.rule())
        let (wall, calls, during) = try flood.run { stormOver in
            try StormVictim(connection: client, call: list).measure(until: stormOver)
        }
        figures["storm"] = Figure(wallNanoseconds: wall, calls: calls)
        figures["listDuringStorm"] = during.victim
        figures["busDuringStorm"] = during.bus
        figures["pingDuringStorm"] = during.brokerPing

        // How many ActivitiesChanged the storm produced (coalesced per loop turn).
        try client.callDiscardingReply(list)  // the broker has emitted everything before this reply
        var signals = 0
        let settle = ContinuousClock.now + .milliseconds(200)
        while let message = listener.next(until: settle) {
            if message.member == Broker1.activitiesChanged.name.rawValue { signals += 1 }
        }
        figures["stormSignals"] = Figure(value: Double(signals))
        withExtendedLifetime(flood) {}
    }
}
