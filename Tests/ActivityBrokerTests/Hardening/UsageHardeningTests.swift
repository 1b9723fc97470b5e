// Issue 11, item 8: the usage ranking through the real broker — a provider's own jobs add no
// uses, and the scores are pruned so the file never grows past what the broker will read.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Hardening: usage ranking")
struct UsageHardeningTests {
    static let url = "https://example.org/usage-hardening"

    @Test("Item 8: a client performing its own activity adds no uses; another client's job does")
    func ownUsesDoNotCount() async throws {
        let f = try await BrokerFixture(builtin: [
            "a.json": TestManifest.json(id: "org.test.a", name: "Alpha")
        ])
        let provider = try TestProvider(bus: f.bus) { _ in .reply(state: "completed", results: [:]) }
        try await f.register("org.test.zzz", name: "Zulu", on: provider.connection)
        #expect(try await f.offered(Self.url) == ["org.test.a", "org.test.zzz"])

        let own = f.finishedSignals(on: provider.connection)
        for _ in 0..<5 {
            let job = try await f.perform("org.test.zzz", ["url": .string(Self.url)], on: provider.connection)
            #expect(try await f.finished(job, in: own).state == "completed")
        }
        #expect(try await f.offered(Self.url) == ["org.test.a", "org.test.zzz"], "self-use moved it up")

        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.zzz", ["url": .string(Self.url)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(try await f.offered(Self.url) == ["org.test.zzz", "org.test.a"], "another client's use counts")
    }

    @Test("Item 8: a usage file over the cap is pruned least-used first, so it stays loadable")
    func scoresArePruned() async throws {
        let f = try await BrokerFixture(
            builtin: ["a.json": TestManifest.json(id: "org.test.a")], start: false)
        // 2,500 throw-away ids used once long ago, and one used often recently.
        let now = Date()
        var entries: [String: [String: Any]] = [:]
        let old = ISO8601DateFormatter().string(from: now.addingTimeInterval(-30 * 86_400))
        for n in 0..<2_500 { entries["org.test.throwaway\(n)"] = ["score": 1.0, "lastUsed": old] }
        entries["org.test.favourite"] = ["score": 50.0, "lastUsed": ISO8601DateFormatter().string(from: now)]
        let data = try JSONSerialization.data(withJSONObject: ["entries": entries])
        try f.write(String(decoding: data, as: UTF8.self), to: "state/activity-broker/usage.json")

        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.a", ["url": .string(Self.url)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(try await f.stopBroker() == .exited(0))

        let text = try #require(f.read(f.usageFile))
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let kept = try #require(decoded?["entries"] as? [String: Any])
        #expect(kept.count <= 2_000)
        #expect(kept["org.test.favourite"] != nil)
        #expect(kept["org.test.a"] != nil)
        #expect(!f.log.contains("unreadable or corrupt"))
    }
}
