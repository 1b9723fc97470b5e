// RegisterActivity's string bounds: object_path, each scheme and path prefix, the path prefixes' count, the whole record.
import ActivityKit
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("RegisterActivity's size limits")
struct RegistrationLimitTests {
    static let invalid = BrokerFixture.errorPrefix + "InvalidArgument"
    static let limit = BrokerFixture.errorPrefix + "LimitExceeded"

    /// `count` bytes starting with `/`, distinct for each `tag` (a path prefix).
    static func prefix(_ tag: Int, bytes count: Int) -> String {
        let head = "/\(tag)-"
        return head + String(repeating: "p", count: count - head.utf8.count)
    }

    /// The error name of registering `id` with `extra`, nil when accepted.
    static func register(
        _ f: BrokerFixture, _ id: String, objectPath: ObjectPath = "/test/provider",
        _ extra: [String: Value] = [:]
    ) async -> String? {
        await errorCode { try await f.register(id, objectPath: objectPath, extra: extra) }
    }

    /// The broker still answers: a Ping, and a small registration goes through.
    static func stillAnswers(_ f: BrokerFixture, _ id: String) async throws {
        try await f.settle()
        try await f.register(id)
        #expect(try await f.registered()[id] != nil)
    }

    @Test(
        "Regression: RegisterActivity kept an object_path, a scheme or a path prefix of any length (1024, 64, 4096 bytes)"
    )
    func stringLengths() async throws {
        let f = try await BrokerFixture()
        let path = { (bytes: Int) throws in try ObjectPath("/" + String(repeating: "o", count: bytes - 1)) }
        #expect(
            await Self.register(f, "org.test.path", objectPath: try path(Manifest.maxObjectPathLength)) == nil
        )
        #expect(
            await Self.register(f, "org.test.path2", objectPath: try path(Manifest.maxObjectPathLength + 1))
                == Self.invalid)

        let scheme = { (bytes: Int) -> [String: Value] in
            ["match": .vardict(["schemes": .stringArray([String(repeating: "s", count: bytes)])])]
        }
        #expect(await Self.register(f, "org.test.scheme", scheme(MatchRule.maxSchemeLength)) == nil)
        #expect(
            await Self.register(f, "org.test.scheme2", scheme(MatchRule.maxSchemeLength + 1)) == Self.invalid)

        let prefix = { (bytes: Int) -> [String: Value] in
            ["match": .vardict(["path_prefixes": .stringArray(["/a", Self.prefix(1, bytes: bytes)])])]
        }
        #expect(await Self.register(f, "org.test.prefix", prefix(MatchRule.maxPathPrefixLength)) == nil)
        #expect(
            await Self.register(f, "org.test.prefix2", prefix(MatchRule.maxPathPrefixLength + 1))
                == Self.invalid)

        #expect(
            try await f.registered().keys.sorted() == ["org.test.path", "org.test.prefix", "org.test.scheme"])
        try await Self.stillAnswers(f, "org.test.after")
    }

    @Test(
        "Regression: RegisterActivity's 1024 path_prefixes were InvalidArgument, not LimitExceeded: 1025 is")
    func pathPrefixCount() async throws {
        let f = try await BrokerFixture()
        let prefixes = { (count: Int) -> [String: Value] in
            ["match": .vardict(["path_prefixes": .stringArray((0..<count).map { "/p\($0)" })])]
        }
        #expect(await Self.register(f, "org.test.many", prefixes(MatchRule.maxEntries)) == nil)
        #expect(await Self.register(f, "org.test.toomany", prefixes(MatchRule.maxEntries + 1)) == Self.limit)
        try await Self.stillAnswers(f, "org.test.after")
    }

    @Test(
        "Regression: a RegisterActivity record had no bound as a whole: its strings together at most 256 KiB")
    func recordSize() async throws {
        let f = try await BrokerFixture()
        /// A record of `id` whose strings (id, name, object path, prefixes) come to `total` bytes.
        func record(_ id: String, total: Int) -> [String: Value] {
            let base = 2 * id.utf8.count + "/test/provider".utf8.count
            var left = total - base
            var prefixes: [String] = []
            while left > 0 {
                let bytes = min(left, MatchRule.maxPathPrefixLength)
                prefixes.append(Self.prefix(prefixes.count, bytes: bytes))
                left -= bytes
            }
            return ["match": .vardict(["path_prefixes": .stringArray(prefixes)])]
        }
        let most = RegistrationDecoder.maxRecordBytes
        #expect(await Self.register(f, "org.test.big1", record("org.test.big1", total: most)) == nil)
        #expect(
            await Self.register(f, "org.test.big2", record("org.test.big2", total: most + 1)) == Self.invalid)
        #expect(try await f.registered().keys.sorted() == ["org.test.big1"])
        try await Self.stillAnswers(f, "org.test.after")
    }
}
