// Usage ranking through the real broker: order changes with use, the file holds no URL, corruption.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Usage ranking and usage.json")
struct UsageRankingTests {
    static let url = "https://example.org/usage-secret-path"
    static let title = "Usage secret title"

    static func start() async throws -> BrokerFixture {
        try await BrokerFixture(builtin: [
            "a.json": TestManifest.json(id: "org.test.a", name: "Alpha"),
            "b.json": TestManifest.json(id: "org.test.b", name: "Bravo"),
            "c.json": TestManifest.json(id: "org.test.c", name: "Charlie"),
            "fails.json": TestManifest.json(
                id: "org.test.fails", name: "Delta", perform: TestManifest.exec(["/bin/sh", "-c", "exit 1"])),
        ])
    }

    static func use(_ id: String, times: Int, in f: BrokerFixture) async throws -> [String] {
        let finished = f.finishedSignals()
        var states: [String] = []
        for _ in 0..<times {
            let job = try await f.perform(id, ["url": .string(url), "title": .string(title)])
            states.append(try await f.finished(job, in: finished).state)
        }
        return states
    }

    @Test("Completed jobs move an activity up; failed ones do not; ClearHistory forgets")
    func rankingChanges() async throws {
        let f = try await Self.start()
        let initial = ["org.test.a", "org.test.b", "org.test.c", "org.test.fails"]
        #expect(try await f.offered(Self.url) == initial)
        #expect(try await Self.use("org.test.c", times: 3, in: f) == ["completed", "completed", "completed"])
        #expect(try await Self.use("org.test.b", times: 1, in: f) == ["completed"])
        #expect(try await Self.use("org.test.fails", times: 2, in: f) == ["failed", "failed"])
        #expect(
            try await f.offered(Self.url) == ["org.test.c", "org.test.b", "org.test.a", "org.test.fails"])
        try await f.call("ClearHistory")
        #expect(try await f.offered(Self.url) == initial)
        #expect(f.logOmits(Self.url, "usage-secret-path", Self.title))
    }

    @Test("Regression: an app's uses of its own `owner` activities never counted; of its own `others` ones they still do not")
    func ownerActivitiesCountTheirOwnersUses() async throws {
        let f = try await BrokerFixture()
        let app = try TestProvider(bus: f.bus) { _ in .reply(state: "completed", results: [:]) }
        let owner: [String: Value] = ["visibility": .string("owner")]
        try await f.register("org.test.own.alpha", name: "Alpha", extra: owner, on: app.connection)
        try await f.register("org.test.own.bravo", name: "Bravo", extra: owner, on: app.connection)
        try await f.register("org.test.pub.charlie", name: "Charlie", on: app.connection)
        try await f.register("org.test.pub.delta", name: "Delta", on: app.connection)
        func offered(on connection: Connection? = nil) async throws -> [String] {
            try await f.offered(Self.url, on: connection).filter { $0.hasPrefix("org.test.") }
        }
        #expect(try await offered(on: app.connection) == ["org.test.own.alpha", "org.test.own.bravo"])
        #expect(try await offered() == ["org.test.pub.charlie", "org.test.pub.delta"])

        // Only the app can perform its `owner` activities: its uses are what ranks them.
        let finished = f.finishedSignals(on: app.connection)
        for id in ["org.test.own.bravo", "org.test.pub.delta"] {
            let job = try await f.perform(id, ["url": .string(Self.url)], on: app.connection)
            #expect(try await f.finished(job, in: finished).state == "completed")
        }
        #expect(try await offered(on: app.connection) == ["org.test.own.bravo", "org.test.own.alpha"])
        // Performing its own `others` activity would promote it in everyone else's lists.
        #expect(try await offered() == ["org.test.pub.charlie", "org.test.pub.delta"])
        withExtendedLifetime(app) {}
    }

    @Test("usage.json holds ids and scores only, and is written by SIGTERM at the latest")
    func usageFilePrivacy() async throws {
        let f = try await Self.start()
        _ = try await Self.use("org.test.b", times: 2, in: f)
        #expect(try await f.stopBroker() == .exited(0))
        let text = try #require(f.read(f.usageFile), "usage.json written at shutdown")
        #expect(text.contains("org.test.b"))
        #expect(!text.contains("usage-secret-path"))
        #expect(!text.contains("example.org"))
        #expect(!text.contains(Self.title))
        #expect(!text.contains("org.test.fails"))
        // Written atomically and privately: no temporary file left, readable by the user alone.
        let directory = (f.usageFile as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["usage.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: f.usageFile)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
        #expect(f.logOmits("usage-secret-path", Self.title))

        // A new broker reads it back: Bravo still ranks first.
        try await f.startBroker()
        #expect(try await f.offered(Self.url).first == "org.test.b")
    }

    @Test("ClearHistory empties usage.json")
    func clearHistoryWritesFile() async throws {
        let f = try await Self.start()
        _ = try await Self.use("org.test.c", times: 1, in: f)
        try await f.call("ClearHistory")
        try await waitUntil("usage.json without org.test.c") {
            guard let text = f.read(f.usageFile) else { return false }
            return !text.contains("org.test.c")
        }
        #expect(try await f.stopBroker() == .exited(0))
        #expect(f.read(f.usageFile)?.contains("org.test.c") == false)
    }

    @Test("A corrupt usage.json: the broker starts, logs one line, and the ranking is empty")
    func corruptUsageFile() async throws {
        let f = try await Self.start()
        _ = try await Self.use("org.test.c", times: 2, in: f)
        #expect(try await f.stopBroker() == .exited(0))
        try f.write("{\"entries\": {\"org.test.c\": [not json at all", to: "state/activity-broker/usage.json")

        let second = try await f.startBroker()
        #expect(
            try await f.offered(Self.url) == ["org.test.a", "org.test.b", "org.test.c", "org.test.fails"])
        let lines = second.standardError.split(separator: "\n").filter { $0.contains("usage.json") }
        #expect(lines.count == 1, "\(second.standardError)")

        // Garbage of another shape (binary, wrong types) is no different.
        #expect(try await f.stopBroker() == .exited(0))
        try Data([0xff, 0xfe, 0x00, 0x01]).write(to: URL(fileURLWithPath: f.usageFile))
        let third = try await f.startBroker()
        #expect(try await f.offered(Self.url).first == "org.test.a")
        #expect(third.standardError.split(separator: "\n").filter { $0.contains("usage.json") }.count == 1)
    }

    @Test("Regression: a broker taking over with --replace lost the uses its predecessor had not yet written")
    func replaceKeepsRecentUses() async throws {
        let f = try await Self.start()
        let first = f.broker
        // Within the usage file's debounce (1 s): the uses are still only in memory.
        _ = try await Self.use("org.test.c", times: 2, in: f)
        try await f.startBroker(arguments: ["--replace"])
        #expect(try await first.exit() == .exited(0))
        try await waitUntil("the new broker to rank Charlie first") {
            try await f.offered(Self.url).first == "org.test.c"
        }
    }
}
