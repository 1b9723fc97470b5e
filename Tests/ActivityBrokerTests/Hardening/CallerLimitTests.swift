// Issue 11, items 4, 5, 6 and 17: what one call may cost the broker, and offers that Perform keeps.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Hardening: caller-controlled sizes and counts")
struct CallerLimitTests {
    static let url = "https://example.org/limits"
    static let limitExceeded = BrokerFixture.errorPrefix + "LimitExceeded"
    static let invalidArgument = BrokerFixture.errorPrefix + "InvalidArgument"

    @Test("Item 4: a match of more than 256 scheme × host pairs is LimitExceeded; 16 × 16 is accepted")
    func matchPairsAreBounded() async throws {
        let f = try await BrokerFixture()
        func match(schemes: Int, hosts: Int) -> [String: Value] {
            [
                "match": .vardict([
                    "schemes": .stringArray((0..<schemes).map { "s\($0)" }),
                    "hosts": .stringArray((0..<hosts).map { "h\($0).example.org" }),
                ])
            ]
        }
        #expect(
            await errorCode { try await f.register("org.test.wide", extra: match(schemes: 64, hosts: 64)) }
                == Self.limitExceeded)
        #expect(
            await errorCode { try await f.register("org.test.long", extra: match(schemes: 1, hosts: 257)) }
                == Self.limitExceeded)
        try await f.register("org.test.fits", extra: match(schemes: 16, hosts: 16))
        #expect(try await f.registered().keys.sorted() == ["org.test.fits"])
        // A registration's line is batched (`frequentEvent`): written within a few milliseconds.
        try await waitUntil("the registration's log line") { f.log.contains("registered org.test.fits") }
    }

    @Test("Item 5: more than 128 entries in names is LimitExceeded; 128 are accepted")
    func namesCountIsBounded() async throws {
        let f = try await BrokerFixture()
        func names(_ count: Int) -> [String: Value] {
            ["names": .stringDict(Dictionary(uniqueKeysWithValues: (0..<count).map { ("l\($0)", "Name \($0)") }))]
        }
        #expect(await errorCode { try await f.register("org.test.many", extra: names(129)) } == Self.limitExceeded)
        try await f.register("org.test.enough", extra: names(128))
        #expect(try await f.registered()["org.test.enough"] != nil)
    }

    @Test("Item 6: a locale longer than 64 bytes or with other characters is InvalidArgument")
    func localeIsBounded() async throws {
        let f = try await BrokerFixture(builtin: ["a.json": TestManifest.json(id: "org.test.a")])
        for locale in [String(repeating: "x", count: 65), "de\u{1B}[2J", "de/../x", String(repeating: "€", count: 8)] {
            #expect(
                await f.errorName(
                    "ListActivities", [.vardict(["url": .string(Self.url)]), .vardict(["locale": .string(locale)])])
                    == Self.invalidArgument, "\(locale.debugDescription)")
            #expect(
                await f.errorName("ListRegistered", [.vardict(["locale": .string(locale)])]) == Self.invalidArgument)
        }
        #expect(
            try await f.offered(Self.url, options: ["locale": .string("sr_RS.UTF-8@latin")]) == ["org.test.a"])
        #expect(try await f.offered(Self.url, options: ["locale": .string(String(repeating: "x", count: 64))]) == ["org.test.a"])
    }

    @Test("Item 17: a URL whose open expansion would exceed 32 KiB is neither offered, explained as applying, nor performed")
    func offeredExactlyWhenPerformAccepts() async throws {
        let f = try await BrokerFixture(builtin: [
            "encode.json": TestManifest.json(
                id: "org.test.encode", perform: #"{"open": "https://share.example/?u={url}"}"#),
            "plain.json": TestManifest.json(id: "org.test.plain", perform: #"{"open": "{url}"}"#),
        ])
        // 12 KiB, valid; each "&" and "=" becomes three bytes once query-encoded: 36 KiB.
        let long = "https://example.org/?" + String(repeating: "&=", count: 6_000)
        let short = "https://example.org/?a=b"
        #expect(try await f.offered(short).sorted() == ["org.test.encode", "org.test.plain"])
        #expect(try await f.offered(long) == ["org.test.plain"])
        let explained = try await f.call("Explain", [.string("org.test.encode"), .vardict(["url": .string(long)])])
        #expect(explained.first == .boolean(false))
        #expect(
            await f.errorName(
                "Perform", [.string("org.test.encode"), .vardict(["url": .string(long)]), .vardict([:])])
                == Self.invalidArgument)
        // The answer for the short URL is unchanged after the long one (same scheme, host, path).
        #expect(try await f.offered(short).sorted() == ["org.test.encode", "org.test.plain"])
    }
}
