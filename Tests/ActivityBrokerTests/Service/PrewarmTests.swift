// Broker1.Prewarm: its limits, and the lookups it starts off the loop.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Broker1.Prewarm")
struct PrewarmTests {
    static let error = BrokerFixture.errorPrefix

    static func prewarm(_ f: BrokerFixture, _ urls: [String]) async -> String? {
        await f.errorName("Prewarm", [.stringArray(urls)])
    }

    @Test("At most 16 http(s) URLs of at most 32 KiB: LimitExceeded and InvalidArgument otherwise")
    func limits() async throws {
        let f = try await BrokerFixture()
        let many = (0..<17).map { "https://host\($0).example/" }
        #expect(await Self.prewarm(f, many) == Self.error + "LimitExceeded")
        #expect(await Self.prewarm(f, Array(many.prefix(16))) == nil)
        #expect(await Self.prewarm(f, []) == nil)
        for url in [
            "ftp://example.org/", "mailto:a@example.org", "not a url",
            "https://example.org/" + String(repeating: "a", count: 32 * 1024),
        ] {
            #expect(
                await Self.prewarm(f, ["https://example.org/", url]) == Self.error + "InvalidArgument",
                "\(url.prefix(40))")
        }
    }

    @Test("Prewarm returns before its lookups, which run and end off the loop")
    func resolvesInTheBackground() async throws {
        let f = try await BrokerFixture()
        #expect(
            await Self.prewarm(f, ["http://localhost/", "https://LOCALHOST:8443/x", "http://127.0.0.1/"])
                == nil)
        try await waitUntil("the lookups") {
            f.log.components(separatedBy: "prewarm: a host was").count - 1 == 2
        }
        #expect(f.log.contains("prewarm: resolving 2 of 2 hosts"), "hosts are looked up once each")
        #expect(f.log.contains("prewarm: a host was resolved"))
        #expect(try await f.property("Version") != .string(""), "the broker keeps serving")
    }
}
