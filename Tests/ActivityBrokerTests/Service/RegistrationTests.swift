// Dynamic registration: replacement, the per-connection limit, ActivitiesChanged, and the
// ListActivities options include_own, exclude and locale.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Registration and ListActivities options")
struct RegistrationTests {
    static let url = "https://example.org/page"

    @Test("Registering the same id again from the same connection replaces it")
    func replaceBySameOwner() async throws {
        let f = try await BrokerFixture()
        let app = try f.bus.connect()
        try await f.register("org.test.dyn", name: "First", on: app)
        try await f.register("org.test.dyn", name: "Second", category: "action", on: app)
        let records = try await f.registered()
        #expect(records.count == 1)
        #expect(records["org.test.dyn"]?["name"] == .string("Second"))
        #expect(records["org.test.dyn"]?["category"] == .string("action"))
        #expect(records["org.test.dyn"]?["origin"] == .string("dbus"))
        #expect(try await f.property("ActivityCount") == .uint32(1))
    }

    @Test("At most 256 activities per connection: the 257th is LimitExceeded, others may still register")
    func limit() async throws {
        let f = try await BrokerFixture()
        let app = try f.bus.connect()
        for n in 0..<256 { try await f.register("org.test.n\(n)", on: app) }
        #expect(
            await errorCode { try await f.register("org.test.n256", on: app) } == BrokerFixture.errorPrefix
                + "LimitExceeded")
        try await f.register("org.test.n0", name: "replaced", on: app)  // replacing is not adding
        try await f.register("org.test.other")  // another connection has its own budget
        #expect(try await f.property("ActivityCount") == .uint32(257))
    }

    @Test("ActivitiesChanged on register, unregister and the owner leaving the bus")
    func activitiesChanged() async throws {
        let f = try await BrokerFixture()
        let listener = try f.bus.connect()
        let changes = f.signals("ActivitiesChanged", interface: BrokerFixture.interface, on: listener)
        try await f.settle(on: listener)
        let app = try f.bus.connect()

        try await f.register("org.test.a", on: app)
        let first = try await changes.next("ActivitiesChanged after register")
        #expect(first.destination == nil, "broadcast")
        #expect(first.body.isEmpty)
        #expect(first.path == BrokerFixture.path)

        try await f.call("UnregisterActivity", [.string("org.test.a")], on: app)
        _ = try await changes.next("ActivitiesChanged after unregister")

        try await f.register("org.test.b", on: app)
        _ = try await changes.next("ActivitiesChanged after the second register")
        app.close()
        _ = try await changes.next("ActivitiesChanged after the owner left")
        #expect(try await f.registered().isEmpty)
        try await waitUntil("the log line about the owner") { f.log.contains("left the bus") }

        // A failed registration changes nothing and says nothing.
        let before = changes.count
        _ = await errorCode { try await f.register("bad id") }
        try await f.settle(on: listener)
        #expect(changes.count == before)
    }

    @Test("include_own: a connection's own activities are left out unless asked for")
    func includeOwn() async throws {
        let f = try await BrokerFixture()
        let app = try f.bus.connect()
        try await f.register("org.test.mine", on: app)
        #expect(try await f.offered(Self.url, on: app) == [])
        #expect(
            try await f.offered(Self.url, options: ["include_own": .boolean(true)], on: app) == [
                "org.test.mine"
            ])
        #expect(try await f.offered(Self.url, options: ["include_own": .boolean(false)], on: app) == [])
        #expect(try await f.offered(Self.url) == ["org.test.mine"])
    }

    @Test("exclude removes activities by id and by category")
    func exclude() async throws {
        let f = try await BrokerFixture(builtin: [
            "s1.json": TestManifest.json(id: "org.test.s1", name: "A share"),
            "s2.json": TestManifest.json(id: "org.test.s2", name: "B share"),
            "a1.json": TestManifest.json(id: "org.test.a1", name: "An action", category: "action"),
        ])
        #expect(try await f.offered(Self.url) == ["org.test.s1", "org.test.s2", "org.test.a1"])
        func excluding(_ entries: [String]) async throws -> [String] {
            try await f.offered(Self.url, options: ["exclude": .stringArray(entries)])
        }
        #expect(try await excluding(["org.test.s1"]) == ["org.test.s2", "org.test.a1"])
        #expect(try await excluding(["category:share"]) == ["org.test.a1"])
        #expect(try await excluding(["category:action", "org.test.s2"]) == ["org.test.s1"])
        #expect(try await excluding(["org.test.unknown"]).count == 3)
        #expect(try await excluding([]).count == 3)
    }

    @Test("locale picks names: exact locale, then language, else the plain name")
    func locale() async throws {
        let f = try await BrokerFixture(builtin: [
            "m.json": TestManifest.json(
                id: "org.test.m", name: "Copy", names: ["de": "Kopieren", "pt_BR": "Copiar"])
        ])
        try await f.register(
            "org.test.d", name: "Send", extra: ["names": .stringDict(["de": "Senden", "fr": "Envoyer"])])
        let other = try f.bus.connect()
        func names(_ locale: String?) async throws -> [String: String] {
            let options: [String: Value] = locale.map { ["locale": .string($0)] } ?? [:]
            var byID: [String: String] = [:]
            for record in try await f.offeredRecords(Self.url, options: options, on: other) {
                byID[record["id"]?.string ?? ""] = record["name"]?.string
            }
            return byID
        }
        #expect(try await names("de_DE") == ["org.test.m": "Kopieren", "org.test.d": "Senden"])
        #expect(try await names("de_AT.UTF-8") == ["org.test.m": "Kopieren", "org.test.d": "Senden"])
        #expect(try await names("fr") == ["org.test.m": "Copy", "org.test.d": "Envoyer"])
        #expect(try await names("pt_BR") == ["org.test.m": "Copiar", "org.test.d": "Send"])
        #expect(try await names("ja") == ["org.test.m": "Copy", "org.test.d": "Send"])
        #expect(try await names(nil) == ["org.test.m": "Copy", "org.test.d": "Send"])
        let registered = try await f.call("ListRegistered", [.vardict(["locale": .string("de")])])
        let localized = (registered.first?.array ?? []).compactMap(\.vardict).compactMap {
            $0["name"]?.string
        }
        #expect(Set(localized) == ["Kopieren", "Senden"])
    }

    @Test("match rules of a registration decide where it is offered")
    func registeredMatch() async throws {
        let f = try await BrokerFixture()
        try await f.register(
            "org.test.video", extra: ["match": .vardict(["hosts": .stringArray(["*.youtube.com"])])])
        let other = try f.bus.connect()
        #expect(try await f.offered("https://www.youtube.com/watch?v=1", on: other) == ["org.test.video"])
        #expect(try await f.offered(Self.url, on: other) == [])
        #expect(
            await f.errorName(
                "Perform", [.string("org.test.video"), .vardict(["url": .string(Self.url)]), .vardict([:])],
                on: other)
                == BrokerFixture.errorPrefix + "NotApplicable")
        #expect(
            await errorCode {
                try await f.register("org.test.bad", extra: ["match": .vardict(["hosts": .string("*")])])
            } == BrokerFixture.errorPrefix + "InvalidArgument")
    }

    @Test(
        "Regression: RegisterActivity accepted names, localized names and icons that a manifest may not have")
    func registrationHasManifestLimits() async throws {
        let f = try await BrokerFixture()
        let bad: [[String: Value]] = [
            ["name": .string(String(repeating: "n", count: 1025))],
            ["names": .stringDict(["de": String(repeating: "n", count: 1025)])],
            ["names": .stringDict(["../etc": "x"])],
            ["names": .stringDict(["de": ""])],
            ["icon": .string("../../some/path")],
        ]
        for extra in bad {
            #expect(
                await errorCode { try await f.register("org.test.big", extra: extra) }
                    == BrokerFixture.errorPrefix + "InvalidArgument", "\(extra.keys.sorted())")
        }
        try await f.register(
            "org.test.fine", name: String(repeating: "n", count: 1024),
            extra: [
                "names": .stringDict(["pt_BR.UTF-8@euro": "ok"]), "icon": .string("/usr/share/icons/x.png"),
            ])
        #expect(try await f.registered().keys.sorted() == ["org.test.fine"])
    }
}
