// Every Broker1 method against the real broker, and the error name each bad call gets.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Broker1 methods and their errors")
struct MethodErrorTests {
    static let url = "https://example.org/article"
    static let error = BrokerFixture.errorPrefix

    static func start() async throws -> BrokerFixture {
        try await BrokerFixture(builtin: [
            "share.json": TestManifest.json(id: "org.test.share", name: "Share"),
            "youtube.json": TestManifest.json(
                id: "org.test.youtube", name: "Tube", match: #"{"hosts": ["*.youtube.com", "youtu.be"]}"#),
            "missing.json": TestManifest.json(
                id: "org.test.missing", name: "Missing",
                requires: #"{"executables": ["no-such-program-activity-broker-test"]}"#),
        ])
    }

    @Test("ListActivities answers, and rejects bad items and options with InvalidArgument")
    func listActivities() async throws {
        let f = try await Self.start()
        #expect(try await f.offered(Self.url) == ["org.test.share"])
        let bad: [[String: Value]] = [
            [:],  // no url
            ["url": .int32(1)],  // wrong type
            ["url": .string("/relative/path")],  // relative
            // oversize title
            ["url": .string(Self.url), "title": .string(String(repeating: "t", count: 4097))],
            ["url": .string(Self.url), "title": .uint32(3)],  // known key, wrong type
            // oversize URL, oversize text
            ["url": .string("https://" + String(repeating: "a", count: 33 * 1024) + ".org/")],
            ["url": .string(Self.url), "text": .string(String(repeating: "x", count: 64 * 1024 + 1))],
            ["url": .string("https://exa mple.org/")],  // not a URL
        ]
        for items in bad {
            #expect(
                await f.errorName("ListActivities", [.vardict(items), .vardict([:])]) == Self.error
                    + "InvalidArgument",
                "items \(items.keys.sorted())")
        }
        let badOptions: [[String: Value]] = [
            ["colour": .string("red")],  // unknown key
            ["locale": .int32(7)],  // wrong type
            ["include_own": .string("yes")],
            ["exclude": .stringArray(["category:sideways"])],
        ]
        for options in badOptions {
            #expect(
                await f.errorName(
                    "ListActivities", [.vardict(["url": .string(Self.url)]), .vardict(options)])
                    == Self.error + "InvalidArgument", "options \(options)")
        }
        // Unknown item keys are ignored (forward compatibility).
        let reply = try await f.call(
            "ListActivities", [.vardict(["url": .string(Self.url), "future": .int32(1)]), .vardict([:])])
        #expect(reply.first?.array?.count == 1)
    }

    @Test("Perform fails with NotFound, NotApplicable, Unavailable or InvalidArgument before any job exists")
    func performErrors() async throws {
        let f = try await Self.start()
        let items: [String: Value] = ["url": .string(Self.url)]
        func performError(_ id: String, _ items: [String: Value], _ options: [String: Value] = [:]) async
            -> String?
        {
            await f.errorName("Perform", [.string(id), .vardict(items), .vardict(options)])
        }
        #expect(await performError("org.test.nothing", items) == Self.error + "NotFound")
        #expect(await performError("not a valid id!", items) == Self.error + "InvalidArgument")
        #expect(await performError("org.test.youtube", items) == Self.error + "NotApplicable")
        #expect(await performError("org.test.missing", items) == Self.error + "Unavailable")
        #expect(await performError("org.test.share", [:]) == Self.error + "InvalidArgument")
        #expect(
            await performError("org.test.share", ["url": .string("no scheme")]) == Self.error
                + "InvalidArgument")
        for options: [String: Value] in [
            ["timeout": .uint32(0)], ["timeout": .uint32(3601)], ["timeout": .int32(5)],
            ["activation_token": .uint32(1)], ["bogus": .boolean(true)],
        ] {
            #expect(
                await performError("org.test.share", items, options) == Self.error + "InvalidArgument",
                "\(options)")
        }
        // None of the failed calls made a job: the first real one is number 1 (in the log;
        // its path carries a random token instead).
        let job = try await f.perform("org.test.share", items)
        #expect(job.rawValue.hasPrefix("/org/activitybroker/Broker1/job/"))
        try await waitUntil("the job's log line") { f.log.contains("job 1: org.test.share started") }
    }

    @Test("RegisterActivity and UnregisterActivity: AlreadyExists, AccessDenied, NotFound, InvalidArgument")
    func registration() async throws {
        let f = try await Self.start()
        let other = try f.bus.connect()
        try await f.register("org.test.dynamic")
        #expect(
            await errorCode { try await f.register("org.test.dynamic", on: other) } == Self.error
                + "AlreadyExists")
        #expect(await errorCode { try await f.register("org.test.share") } == Self.error + "AlreadyExists")
        #expect(
            await f.errorName("UnregisterActivity", [.string("org.test.dynamic")], on: other) == Self.error
                + "AccessDenied")
        #expect(
            await f.errorName("UnregisterActivity", [.string("org.test.share")]) == Self.error
                + "AccessDenied")
        #expect(
            await f.errorName("UnregisterActivity", [.string("org.test.unknown")]) == Self.error + "NotFound")
        try await f.call("UnregisterActivity", [.string("org.test.dynamic")])
        #expect(
            await f.errorName("UnregisterActivity", [.string("org.test.dynamic")]) == Self.error + "NotFound")

        let badRecords: [[String: Value]] = [
            ["name": .string("x"), "category": .string("share"), "object_path": .objectPath("/p")],  // no id
            [
                "id": .string("bad id"), "name": .string("x"), "category": .string("share"),
                "object_path": .objectPath("/p"),
            ],
            [
                "id": .string("org.t.a"), "name": .string("x"), "category": .string("other"),
                "object_path": .objectPath("/p"),
            ],
            [
                "id": .string("org.t.a"), "name": .int32(1), "category": .string("share"),
                "object_path": .objectPath("/p"),
            ],
            ["id": .string("org.t.a"), "name": .string("x"), "category": .string("share")],  // no object_path
            [
                "id": .string("org.t.a"), "name": .string("x"), "category": .string("share"),
                "object_path": .objectPath("/p"),
                "unknown": .string("?"),
            ],
        ]
        for record in badRecords {
            #expect(
                await f.errorName("RegisterActivity", [.vardict(record)]) == Self.error + "InvalidArgument",
                "\(record)")
        }
    }

    @Test("ListRegistered lists every activity with available and reason; Explain names the deciding rule")
    func listRegisteredAndExplain() async throws {
        let f = try await Self.start()
        let records = try await f.registered()
        #expect(Set(records.keys) == ["org.test.share", "org.test.youtube", "org.test.missing"])
        #expect(records["org.test.share"]?["available"]?.bool == true)
        #expect(records["org.test.share"]?["reason"] == nil)
        #expect(records["org.test.missing"]?["available"]?.bool == false)
        #expect(records["org.test.missing"]?["reason"]?.string?.isEmpty == false)
        #expect(records["org.test.share"]?["origin"]?.string == "builtin")
        #expect(
            await f.errorName("ListRegistered", [.vardict(["locale": .boolean(true)])]) == Self.error
                + "InvalidArgument")

        let items = Value.vardict(["url": .string(Self.url)])
        let applies = try await f.call("Explain", [.string("org.test.share"), items])
        #expect(applies.first?.bool == true)
        let rejects = try await f.call("Explain", [.string("org.test.youtube"), items])
        #expect(rejects.first?.bool == false)
        #expect(rejects.last?.string?.contains("youtu") == true)
        let unavailable = try await f.call("Explain", [.string("org.test.missing"), items])
        #expect(unavailable.first?.bool == false, "an unavailable activity is not offered: \(unavailable)")
        #expect(
            unavailable.last?.string?.contains("no-such-program-activity-broker-test") == true,
            "\(unavailable)")
        #expect(
            await f.errorName("Explain", [.string("org.test.nothing"), items]) == Self.error + "NotFound")
        #expect(
            await f.errorName("Explain", [.string("org.test.share"), .vardict([:])]) == Self.error
                + "InvalidArgument")
        try await f.call("ClearHistory")
    }

    @Test(
        "A wrong signature gets InvalidArgs, an unknown method UnknownMethod, and the broker keeps answering")
    func malformedCalls() async throws {
        let f = try await Self.start()
        #expect(await f.errorName("ListActivities", [.string(Self.url)]) == DBusError.invalidArgsName)
        #expect(
            await f.errorName("Perform", [.string("org.test.share"), .vardict([:])])
                == DBusError.invalidArgsName)
        #expect(await f.errorName("ClearHistory", [.boolean(true)]) == DBusError.invalidArgsName)
        #expect(await f.errorName("RegisterActivity", [.stringArray(["id"])]) == DBusError.invalidArgsName)
        #expect(await f.errorName("Frobnicate") == DBusError.unknownMethodName)
        #expect(
            await f.errorName(
                "Cancel", path: "/org/activitybroker/Broker1/job/99", interface: BrokerFixture.jobInterface)
                == DBusError.unknownObjectName)
        try await f.settle()
        #expect(try await f.offered(Self.url) == ["org.test.share"])
        #expect(f.broker.termination == nil)
    }

    @Test("No input makes the broker exit: odd values in every argument of every method")
    func oddInputs() async throws {
        let f = try await Self.start()
        let strings = [
            "", " ", "\u{202E}evil", String(repeating: "a", count: 300), "org.test.share\n",
            "../../etc/passwd",
            "category:", "%00", "\u{FFFF}", "org..test", ".", "-",
        ]
        let values: [Value] =
            strings.map { .string($0) } + [
                .variant(.variant(.variant(.string("https://example.org/")))), .int64(-1), .double(.nan),
                .array(element: "s", []), .dictionary(key: "s", value: "v", []), .objectPath("/"),
                .structure([.string("url"), .int32(1)]), .stringArray(strings),
                .vardict(["url": .string("x")]),
            ]
        let keys = [
            "url", "title", "text", "id", "name", "names", "icon", "category", "match", "object_path",
            "locale", "exclude", "include_own", "timeout", "activation_token", "priority", "",
        ]
        let share = Value.string("org.test.share")
        for value in values {
            for key in keys {
                var fields: [String: Value] = ["url": .string(Self.url)]
                fields[key] = value
                let dict = Value.vardict(fields)
                _ = await f.errorName("ListActivities", [dict, dict])
                _ = await f.errorName("Perform", [share, dict, dict])
                _ = await f.errorName("RegisterActivity", [dict])
                _ = await f.errorName("ListRegistered", [dict])
                _ = await f.errorName("Explain", [share, dict])
            }
            if case .string = value {
                _ = await f.errorName(
                    "Perform", [value, .vardict(["url": .string(Self.url)]), .vardict([:])])
                _ = await f.errorName("UnregisterActivity", [value])
                _ = await f.errorName("Explain", [value, .vardict(["url": value])])
            }
        }
        try await f.settle()
        #expect(f.broker.termination == nil)
        #expect(try await f.offered(Self.url) == ["org.test.share"])
    }
}

/// The D-Bus error name `body` throws, nil when it succeeds.
func errorCode(_ body: () async throws -> Void) async -> String? {
    do {
        try await body()
        return nil
    } catch let error as DBusError {
        return error.name
    } catch {
        return "not a DBusError: \(error)"
    }
}
