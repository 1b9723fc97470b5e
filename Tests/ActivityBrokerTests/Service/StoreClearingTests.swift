// ClearHistory and ClearAttributions, which any connection may call: with nothing to forget they write and log nothing.
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Any connection may call `ClearHistory` and `ClearAttributions`. Each call used to rewrite its
/// store file (a temporary file, fsync, rename) on the broker's loop and log a line at once, so
/// a loop of calls slowed every client and filled the journal. A store with nothing in it is
/// left alone; the files' inodes and modification times tell whether they were rewritten.
@Suite("Clearing the stores: nothing to forget, nothing written")
struct StoreClearingTests {
    static let burst = 200

    /// The file's inode and modification time, nil when it does not exist.
    static func identity(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    /// `count` calls of `member` sent at once from the fixture's client; waits for every answer.
    static func burst(_ member: MemberName, _ count: Int = burst, in f: BrokerFixture) async throws {
        let answers = Inbox<String?>()
        for _ in 0..<count {
            _ = f.client.call(
                MethodCall(
                    destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                    member: member),
                timeout: .seconds(60)
            ) { result in
                if case .failure(let error) = result { answers.put(error.name) } else { answers.put(nil) }
            }
        }
        for _ in 0..<count { #expect(try await answers.next("an answer to \(member)", deadline: .seconds(60)) == nil) }
    }

    @Test("Regression: a burst of ClearHistory on an empty store rewrote usage.json each time; now never, and the broker answers on")
    func clearHistoryOnEmptyStoreWritesNothing() async throws {
        let f = try await UsageRankingTests.start()
        // No file at all: it stays so.
        try await Self.burst("ClearHistory", in: f)
        #expect(FileManager.default.fileExists(atPath: f.usageFile) == false)

        // A file holding no uses (a use, then a clear, written at the latest by SIGTERM).
        _ = try await UsageRankingTests.use("org.test.c", times: 1, in: f)
        try await f.call("ClearHistory")
        #expect(try await f.stopBroker() == .exited(0))
        let before = try #require(Self.identity(f.usageFile))
        #expect(f.read(f.usageFile)?.contains("org.test.c") == false)

        try await f.startBroker()
        try await Self.burst("ClearHistory", in: f)
        let other = try f.bus.connect()
        defer { other.close() }
        #expect(try await f.offered(UsageRankingTests.url, on: other).count == 4, "another client is answered")
        // SIGTERM writes whatever is pending: nothing was.
        #expect(try await f.stopBroker() == .exited(0))
        #expect(Self.identity(f.usageFile) == before, "usage.json was rewritten")
        #expect(f.log.components(separatedBy: "usage history cleared").count == 2, "one line, for the one real clear")
    }

    @Test("ClearHistory with uses empties usage.json before it returns, and a burst after it writes nothing")
    func clearHistoryWithUsesWritesOnce() async throws {
        let f = try await UsageRankingTests.start()
        _ = try await UsageRankingTests.use("org.test.c", times: 1, in: f)
        try await f.call("ClearHistory")
        #expect(f.read(f.usageFile).map { !$0.contains("org.test.c") } == true, "forgotten on disk when the call returns")
        let written = try #require(Self.identity(f.usageFile))
        #expect(try await f.offered(UsageRankingTests.url) == ["org.test.a", "org.test.b", "org.test.c", "org.test.fails"])
        try await Self.burst("ClearHistory", in: f)
        #expect(try await f.stopBroker() == .exited(0))
        #expect(Self.identity(f.usageFile) == written, "cleared once, written once")
    }

    @Test("Regression: a burst of ClearAttributions on an empty store rewrote attribution.json each time; now never")
    func clearAttributionsOnEmptyStoreWritesNothing() async throws {
        let f = try await BrokerFixture(start: false)
        let path = AttributionTests.storeFile(f)
        try f.write(Self.attributionFile, to: "state/activity-broker/attribution.json")
        try await f.startBroker()

        // With something to forget, the file is emptied before the call returns (`share
        // attributions --clear` then lists the file).
        try await f.call("ClearAttributions")
        #expect(f.read(path) == #"{"version":1,"attributions":[]}"# + "\n")
        let cleared = try #require(Self.identity(path))
        try await Self.burst("ClearAttributions", in: f)
        try await f.settle()
        #expect(Self.identity(path) == cleared, "attribution.json was rewritten")

        // A broker that reads that empty file leaves it alone too.
        #expect(try await f.stopBroker() == .exited(0))
        try await f.startBroker()
        try await Self.burst("ClearAttributions", in: f)
        #expect(try await f.stopBroker() == .exited(0))
        #expect(Self.identity(path) == cleared, "attribution.json was rewritten")
        #expect(f.log.components(separatedBy: "click measurement data cleared").count == 2, "one line, for the one real clear")
    }

    @Test("ClearAttributions on a corrupt store file replaces it, though the store it read is empty")
    func clearAttributionsReplacesCorruptFile() async throws {
        let f = try await BrokerFixture(start: false)
        let path = AttributionTests.storeFile(f)
        try f.write("{not json, ads.example", to: "state/activity-broker/attribution.json")
        try await f.startBroker()
        try await f.call("ClearAttributions")
        #expect(f.read(path) == #"{"version":1,"attributions":[]}"# + "\n")
        // What it held is kept aside, not lost with the first save.
        #expect(f.read(path + ".corrupt") == "{not json, ads.example")
    }

    /// Regression: expired clicks were dropped only at the next click or trigger, so a quiet
    /// machine kept them (and `share attributions` listed them) past their 7 days.
    @Test("A click past its 7 days is gone from the store when the broker starts; a live one stays")
    func expiredClicksGoAtStart() async throws {
        let f = try await BrokerFixture(start: false)
        let expired = #"{"kind":"click","source_site":"old.example","destination_site":"shop.example","source_id":3,"expires":"2001-01-08"}"#
        try f.write(
            Self.attributionFile.replacingOccurrences(of: #""attributions":["#, with: #""attributions":["# + expired + ","),
            to: "state/activity-broker/attribution.json")
        try await f.startBroker()
        try await f.settle()
        let stored = AttributionTests.stored(f)
        #expect(!stored.contains("old.example"), "\(stored)")
        #expect(stored.contains(#""source_site":"ads.example","destination_site":"shop.example""#), "\(stored)")
    }

    /// A click that expires in 2999 and a report, as the broker writes them.
    static let attributionFile = """
        {"version":1,"attributions":[{"kind":"click","source_site":"ads.example","destination_site":"shop.example","source_id":1,"expires":"2999-01-08"},{"kind":"report","source_site":"ads.example","destination_site":"books.example","source_id":2,"trigger_data":9,"priority":4,"send_after":"2999-01-03","attempts":0}]}

        """
}
