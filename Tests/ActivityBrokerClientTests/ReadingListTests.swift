// The Reading List provider end to end: started by D-Bus activation, no duplicates, corrupt files kept aside, broker-only, bounded.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// A bus whose servicedir starts the built activity-reading-list (with its own XDG_DATA_HOME),
/// and, unless `broker` is false, a broker whose built-in manifests are the repository's
/// reading-list.json alone. Without a broker a test can own the broker's name itself and call
/// the provider as the broker would.
private struct ReadingListSetup {
    let directory: String
    let bus: TestBus
    let harness: BrokerHarness?
    var broker: BrokerHarness { harness! }
    var listFile: String { directory + "/rl-data/activity-broker/reading-list.json" }
    var providerEnvironment: [String: String] {
        var environment = bus.environment
        environment["XDG_DATA_HOME"] = directory + "/rl-data"
        return environment
    }

    /// `idleExit`: the provider's `--idle-exit` seconds; nil leaves its default (60 s).
    init(existingList: String? = nil, broker: Bool = true, idleExit: Int? = nil) async throws {
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
        let options = idleExit.map { " --idle-exit \($0)" } ?? ""
        try """
        [D-BUS Service]
        Name=org.activitybroker.ReadingList
        Exec=/usr/bin/env XDG_DATA_HOME=\(directory)/rl-data \(provider)\(options)

        """.write(
            toFile: services + "/org.activitybroker.ReadingList.service", atomically: true, encoding: .utf8)
        let bus = try await TestBus.start(serviceDirectory: services)
        self.bus = bus
        if broker {
            let manifest = try String(
                contentsOfFile: repositoryRoot + "/extensions/reading-list.json", encoding: .utf8)
            harness = try await BrokerHarness(bus: bus, manifests: ["reading-list.json": manifest])
        } else {
            harness = nil
        }
    }

    /// Stops the broker and the bus and removes the directory, on a thread of its own
    /// (`BackgroundCleanup`): called from the tests' `defer`, which cannot await.
    func remove() {
        let (harness, bus, directory) = (harness, bus, directory)
        BackgroundCleanup.run {
            harness?.stop()
            bus.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Calls the provider's `Perform` directly on `connection` (starting it by activation).
    func performDirectly(
        on connection: Connection, url: String, title: String? = nil
    ) async throws(DBusError) -> [Value] {
        var items: [String: Value] = [ItemKey.url: .string(url)]
        if let title { items[ItemKey.title] = .string(title) }
        return try await connection.call(
            MethodCall(
                destination: "org.activitybroker.ReadingList", path: "/org/activitybroker/ReadingList",
                interface: Provider1.interface, member: "Perform",
                body: [.string(ReadingListTests.id), .vardict(items), .vardict([:])]))
    }

    /// A connection that owns `org.activitybroker.Broker1`, as the broker's would.
    func connectAsBroker() async throws -> Connection {
        let connection = try bus.connect()
        #expect(try await connection.requestName(Broker1.busName, flags: [.doNotQueue]) == .primaryOwner)
        return connection
    }
}

/// The error name a call threw, or nil when it did not throw.
private func errorName(_ body: () async throws(DBusError) -> [Value]) async -> String? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error.name
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

        await setup.broker.stopOffPool()
        await setup.broker.bus.stopOffPool()
        try await waitUntil("the provider to exit with its bus") {
            kill(pid_t(pid), 0) != 0 && errno == ESRCH
        }
    }

    /// Regression: the provider, started by D-Bus activation, never exited when idle. Now it
    /// exits a period (`--idle-exit`, here 1 s) after its last answer, and the next call starts
    /// it again; each call is answered.
    @Test func theProviderExitsWhenIdleAndTheNextCallStartsItAgain() async throws {
        let setup = try await ReadingListSetup(broker: false, idleExit: 1)
        defer { setup.remove() }
        let broker = try await setup.connectAsBroker()
        defer { broker.close() }

        let first = try await setup.performDirectly(on: broker, url: "https://example.org/first")
        #expect(first == [.string("completed"), .vardict(["count": .int64(1)])], "\(setup.bus.daemonOutput)")
        // Not by its pid: asked for after the answer, it raced the one-second idle exit under
        // load (the name had no owner any more). The name is released when the process ends.
        try await waitUntil("the idle provider to exit by itself", interval: .milliseconds(50)) {
            setup.bus.daemonOutput.contains("activity-reading-list: idle: exiting")
        }
        try await waitUntil("its name released", interval: .milliseconds(50)) {
            do {
                _ = try await broker.unixProcessID(of: "org.activitybroker.ReadingList")
                return false
            } catch {
                return (error as? DBusError)?.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
            }
        }

        // Only a process started again can answer now.
        let second = try await setup.performDirectly(on: broker, url: "https://example.org/second")
        #expect(
            second == [.string("completed"), .vardict(["count": .int64(2)])], "nothing lost with the process")
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

    // MARK: Issue 11, item 13: broker-only, checked URLs, bounded, sanitized listing

    @Test func aCallerThatIsNotTheBrokerIsDenied() async throws {
        let setup = try await ReadingListSetup()
        defer { setup.remove() }
        let stranger = try setup.broker.bus.connect()
        let name = await errorName { () async throws(DBusError) in
            try await setup.performDirectly(on: stranger, url: "https://example.org/bypass", title: "\u{1B}[2J")
        }
        #expect(name == BrokerErrorName.accessDenied.rawValue)
        #expect(!FileManager.default.fileExists(atPath: setup.listFile), "nothing was written")

        // The broker itself still gets through.
        let client = BrokerProxy(connection: try setup.broker.bus.connect(), address: setup.broker.bus.address)
        let outcome = try await client.perform(Self.id, items: SharedItems(url: "https://example.org/ok"))
        #expect(outcome.state == .completed, "\(outcome.results)")
    }

    @Test func aJavascriptURLIsRefused() async throws {
        let setup = try await ReadingListSetup(broker: false)
        defer { setup.remove() }
        let broker = try await setup.connectAsBroker()
        for url in ["javascript:alert(document.cookie)//https://example.org/", "JavaScript:alert(1)", "data:text/html,x",
                    "https://example.org/\u{1B}[2J", "https:///no-host", ""]
        {
            let name = await errorName { () async throws(DBusError) in
                try await setup.performDirectly(on: broker, url: url)
            }
            #expect(name == BrokerErrorName.invalidArgument.rawValue, "\(url.debugDescription)")
        }
        #expect(!FileManager.default.fileExists(atPath: setup.listFile), "nothing was written")
        let accepted = try await setup.performDirectly(on: broker, url: "https://example.org/fine")
        #expect(accepted.first?.string == JobState.completed.rawValue)
    }

    @Test func longTitlesAreCutAndAFullListRefusesNewURLs() async throws {
        let existing = (0..<10_000).map { "{\"url\":\"https://example.org/\($0)\",\"added\":\"2026-01-01T00:00:00Z\"}" }
        let setup = try await ReadingListSetup(existingList: "[" + existing.joined(separator: ",") + "]", broker: false)
        defer { setup.remove() }
        let broker = try await setup.connectAsBroker()

        let full = await errorName { () async throws(DBusError) in
            try await setup.performDirectly(on: broker, url: "https://example.org/one-too-many")
        }
        #expect(full == BrokerErrorName.limitExceeded.rawValue)
        let again = try await setup.performDirectly(on: broker, url: "https://example.org/5")
        #expect(again.count == 2 && again[1].vardict?["count"]?.int64 == 10_000, "a URL already there is no new entry")

        try FileManager.default.removeItem(atPath: setup.listFile)
        let huge = String(repeating: "T", count: 4 * 1024 * 1024)
        _ = try await setup.performDirectly(on: broker, url: "https://example.org/long", title: huge)
        let data = try #require(FileManager.default.contents(atPath: setup.listFile))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let title = try #require(entries.first?["title"] as? String)
        #expect(title.count == 1_000 && title.hasSuffix("…"), "cut to the documented 1,000 characters")
    }

    @Test func listingPrintsTitlesWithoutTerminalControls() async throws {
        let evil = "Evil \u{1B}]0;owned\u{07}title\u{1B}[2J\u{9B}31m\u{202E}txt.exe\nsecond line"
        let list = [["url": "https://example.org/evil", "title": evil, "added": "2026-01-01T00:00:00Z"]]
        let setup = try await ReadingListSetup(
            existingList: String(decoding: try JSONSerialization.data(withJSONObject: list), as: UTF8.self),
            broker: false)
        defer { setup.remove() }
        let output = try await ChildProcess.run(
            try BuiltProducts.executable("activity-reading-list"), ["--list"],
            environment: setup.providerEnvironment)
        #expect(output.termination == .exited(0))
        #expect(output.standardOutput.contains("Evil ]0;ownedtitle[2J31mtxt.exe second line"), "\(output.standardOutput.debugDescription)")
        #expect(!output.standardOutput.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
        })
    }

    // MARK: Review: a failed read must not become an empty list, and reads are bounded

    /// Regression: any read error (not only a missing file) was taken for an empty list, and
    /// the add then wrote a one-entry list over the old one. A directory in place of the file
    /// makes the read fail with EISDIR even as root (where chmod 000 would not).
    @Test func aListThatCannotBeReadIsNotOverwritten() async throws {
        let setup = try await ReadingListSetup(broker: false)
        defer { setup.remove() }
        try FileManager.default.createDirectory(atPath: setup.listFile, withIntermediateDirectories: true)
        try "kept".write(toFile: setup.listFile + "/marker", atomically: true, encoding: .utf8)
        let broker = try await setup.connectAsBroker()

        let name = await errorName { () async throws(DBusError) in
            try await setup.performDirectly(on: broker, url: "https://example.org/would-replace-all")
        }
        #expect(name == BrokerErrorName.providerFailed.rawValue)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: setup.listFile, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.listFile) == ["marker"], "left unchanged")
    }

    /// Regression: the file was read whole with no limit. One byte over 64 MiB (sparse, so
    /// cheap) is refused before reading, and the file is left as it was.
    @Test func aListOverTheSizeLimitIsRefusedAndKept() async throws {
        let setup = try await ReadingListSetup(existingList: "[]", broker: false)
        defer { setup.remove() }
        let size: UInt64 = 64 * 1024 * 1024 + 1
        let handle = try #require(FileHandle(forWritingAtPath: setup.listFile))
        try handle.truncate(atOffset: size)
        try handle.close()
        let broker = try await setup.connectAsBroker()

        let name = await errorName { () async throws(DBusError) in
            try await setup.performDirectly(on: broker, url: "https://example.org/big")
        }
        #expect(name == BrokerErrorName.limitExceeded.rawValue)
        let attributes = try FileManager.default.attributesOfItem(atPath: setup.listFile)
        #expect((attributes[.size] as? NSNumber)?.uint64Value == size, "left unchanged")
        let directory = (setup.listFile as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["reading-list.json"], "not moved aside")
    }
}
