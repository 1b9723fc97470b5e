// The Reading List provider end to end: started by D-Bus activation, no duplicates, corrupt files kept aside.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

/// A bus whose servicedir starts the built activity-reading-list (with its own XDG_DATA_HOME),
/// and a broker whose built-in manifests are the repository's reading-list.json alone.
private struct ReadingListSetup {
    let directory: String
    let broker: BrokerHarness
    var listFile: String { directory + "/rl-data/activity-broker/reading-list.json" }
    var providerEnvironment: [String: String] {
        var environment = broker.environment
        environment["XDG_DATA_HOME"] = directory + "/rl-data"
        return environment
    }

    init(existingList: String? = nil) async throws {
        directory = try TemporaryDirectory(prefix: "reading-list-test").path
        let services = directory + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: directory + "/rl-data/activity-broker", withIntermediateDirectories: true)
        if let existingList {
            try existingList.write(
                toFile: directory + "/rl-data/activity-broker/reading-list.json", atomically: true,
                encoding: .utf8)
        }
        // Activation passes the bus's environment; env(1) adds the data directory. (Not a
        // wrapper script: one the test just wrote can fail to exec with ETXTBSY while a child
        // spawned meanwhile on another thread still holds its write fd.)
        let provider = try BuiltProducts.executable("activity-reading-list")
        try """
        [D-BUS Service]
        Name=org.activitybroker.ReadingList
        Exec=/usr/bin/env XDG_DATA_HOME=\(directory)/rl-data \(provider)

        """.write(
            toFile: services + "/org.activitybroker.ReadingList.service", atomically: true, encoding: .utf8)
        let manifest = try String(
            contentsOfFile: repositoryRoot + "/extensions/reading-list.json", encoding: .utf8)
        broker = try await BrokerHarness(
            bus: TestBus(serviceDirectory: services), manifests: ["reading-list.json": manifest])
    }

    func remove() {
        broker.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite(.timeLimit(.minutes(2))) struct ReadingListTests {
    static let id = "org.activitybroker.reading-list"

    @Test func addingTheSameURLTwiceKeepsOneEntry() async throws {
        let setup = try await ReadingListSetup()
        defer { setup.remove() }
        let client = BrokerProxy(
            connection: try setup.broker.bus.connect(), address: setup.broker.bus.address)

        let registered = try await client.registered()
        #expect(registered.first { $0.id == Self.id }?.available == true, "activatable, so available")

        let first = SharedItems(url: "https://example.org/article", title: "An article")
        let once = try await client.perform(Self.id, items: first)
        #expect(
            once.state == .completed, "\(once.results) \(setup.broker.log) \(setup.broker.bus.daemonOutput)")
        #expect(once.results["count"] == .integer(1))
        let twice = try await client.perform(Self.id, items: first)
        #expect(twice.results["count"] == .integer(1), "no duplicate")
        let other = try await client.perform(Self.id, items: SharedItems(url: "https://example.org/other"))
        #expect(other.results["count"] == .integer(2))

        let list = try await ChildProcess.run(
            try BuiltProducts.executable("activity-reading-list"), ["--list"],
            environment: setup.providerEnvironment)
        #expect(list.termination == .exited(0))
        #expect(list.standardOutput.contains("An article\n  https://example.org/article"))
        #expect(list.standardOutput.contains("https://example.org/other"))
        let data = try #require(FileManager.default.contents(atPath: setup.listFile))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(
            entries.compactMap { $0["url"] as? String } == [
                "https://example.org/article", "https://example.org/other",
            ])
    }

    /// Regression: the provider closed its connection right after starting (it was a local of a
    /// `do` block), so every perform activated a new process, and none ever exited.
    @Test func oneProviderProcessServesAndExitsWithItsBus() async throws {
        let setup = try await ReadingListSetup()
        defer { setup.remove() }
        let connection = try setup.broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: setup.broker.bus.address)
        _ = try await client.perform(Self.id, items: SharedItems(url: "https://example.org/1"))
        let pid = try await connection.unixProcessID(of: "org.activitybroker.ReadingList")
        _ = try await client.perform(Self.id, items: SharedItems(url: "https://example.org/2"))
        // A round trip to the provider itself: it still owns its name, in the same process.
        _ = try await connection.call(
            MethodCall(
                destination: "org.activitybroker.ReadingList", path: "/",
                interface: "org.freedesktop.DBus.Peer",
                member: "Ping"), autoStart: false)
        #expect(try await connection.unixProcessID(of: "org.activitybroker.ReadingList") == pid)

        setup.broker.stop()
        setup.broker.bus.stop()
        try await waitUntil("the provider to exit with its bus") {
            kill(pid_t(pid), 0) != 0 && errno == ESRCH
        }
    }

    @Test func concurrentAddsLoseNothing() async throws {
        let setup = try await ReadingListSetup()
        defer { setup.remove() }
        let client = BrokerProxy(
            connection: try setup.broker.bus.connect(), address: setup.broker.bus.address)
        let urls = (1...8).map { "https://example.org/page/\($0)" }
        try await withThrowingTaskGroup(of: ActivityOutcome.self) { group in
            for url in urls {
                group.addTask { try await client.perform(Self.id, items: SharedItems(url: url)) }
            }
            for try await outcome in group { #expect(outcome.state == .completed, "\(outcome.results)") }
        }
        let data = try #require(FileManager.default.contents(atPath: setup.listFile))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["url"] as? String }) == Set(urls))
    }

    @Test func aCorruptListIsKeptAsideAndANewOneStarts() async throws {
        let corrupt = "[{\"url\": \"https://example.org/lost\", \"added\": "
        let setup = try await ReadingListSetup(existingList: corrupt)
        defer { setup.remove() }
        let client = BrokerProxy(
            connection: try setup.broker.bus.connect(), address: setup.broker.bus.address)

        let outcome = try await client.perform(Self.id, items: SharedItems(url: "https://example.org/new"))
        #expect(outcome.state == .completed, "\(outcome.results)")
        #expect(outcome.results["count"] == .integer(1))

        let directory = (setup.listFile as NSString).deletingLastPathComponent
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix("reading-list.json.corrupt-")
        }
        #expect(kept.count == 1)
        if let name = kept.first {
            #expect(
                try String(contentsOfFile: directory + "/" + name, encoding: .utf8) == corrupt,
                "kept unchanged")
        }
        let list = try await ChildProcess.run(
            try BuiltProducts.executable("activity-reading-list"), ["--list"],
            environment: setup.providerEnvironment)
        #expect(list.standardOutput.contains("https://example.org/new"))
        #expect(!list.standardOutput.contains("lost"))
    }

    @Test func listingAnEmptyListSaysSo() async throws {
        let directory = try TemporaryDirectory(prefix: "reading-list-empty")
        defer { directory.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = directory.path
        let list = try await ChildProcess.run(
            try BuiltProducts.executable("activity-reading-list"), ["--list"], environment: environment)
        #expect(list.termination == .exited(0))
        #expect(list.standardOutput.contains("empty"))
    }
}
