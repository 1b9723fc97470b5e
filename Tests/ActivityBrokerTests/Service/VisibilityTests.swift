// RegisterActivity's visibility: an `owner` activity exists for its owner alone (API.md §3).
import DBus
import Foundation
import TestSupport
import Testing

@Suite("RegisterActivity visibility")
struct VisibilityTests {
    static let url = "https://example.org/visible"
    static let error = BrokerFixture.errorPrefix

    /// A broker in a graphical session, with an app connection that registered
    /// `org.test.app.own` (owner) and `org.test.app.public` (others).
    static func start() async throws -> (BrokerFixture, app: Connection) {
        let f = try await BrokerFixture(start: false)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try f.write(TestManifest.json(id: "org.test.static"), to: "builtin/static.json")
        try await f.startBroker()
        let app = try f.bus.connect()
        try await f.register("org.test.app.own", extra: ["visibility": .string("owner")], on: app)
        try await f.register("org.test.app.public", extra: ["visibility": .string("others")], on: app)
        return (f, app)
    }

    @Test("The owner is offered its owner activity (even without include_own), never its others one")
    func ownerSeesItsOwnActivity() async throws {
        let (f, app) = try await Self.start()
        let offered = try await f.offered(Self.url, on: app)
        #expect(offered.contains("org.test.app.own"))
        #expect(!offered.contains("org.test.app.public"))
        let withOwn = try await f.offered(Self.url, options: ["include_own": .boolean(true)], on: app)
        #expect(withOwn.contains("org.test.app.own") && withOwn.contains("org.test.app.public"))
        #expect(try await f.registered(on: app)["org.test.app.own"] != nil)
        #expect(try await f.call("Explain", [.string("org.test.app.own"), .vardict(["url": .string(Self.url)])], on: app).first == .boolean(true))
        #expect(
            await f.errorName("Share", [.string(""), .vardict(["url": .string(Self.url)]), .vardict(["exclude": .stringArray(["org.test.app.own"])])], on: app)
                == Self.error + "Unavailable", "excluded, yet other activities apply: only the sheet is missing")
    }

    @Test("For every other connection an owner activity does not exist: lists, Perform, Explain")
    func othersNeverSeeIt() async throws {
        let (f, app) = try await Self.start()
        // The app stays connected throughout: its activities leave with it.
        defer { withExtendedLifetime(app) {} }
        let stranger = try f.bus.connect()
        let offered = try await f.offered(Self.url, on: stranger)
        #expect(!offered.contains("org.test.app.own"))
        #expect(offered.contains("org.test.app.public") && offered.contains("org.test.static"))
        let registered = try await f.registered(on: stranger)
        #expect(registered["org.test.app.own"] == nil)
        #expect(registered["org.test.app.public"] != nil)
        #expect(
            await f.errorName("Perform", [.string("org.test.app.own"), .vardict(["url": .string(Self.url)]), .vardict([:])], on: stranger)
                == Self.error + "NotFound")
        #expect(
            await f.errorName("Explain", [.string("org.test.app.own"), .vardict(["url": .string(Self.url)])], on: stranger)
                == Self.error + "NotFound")
        // ActivityCount counts every activity, whoever may see it.
        #expect(try await f.property("ActivityCount", on: stranger) == .uint32(3))
    }

    @Test("The owner's share sheet lists its owner activity; another caller's does not")
    func ownerActivityInTheOwnersSheetOnly() async throws {
        let (f, app) = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let stranger = try f.bus.connect()
        let items: [String: Value] = ["url": .string(Self.url)]
        _ = try await f.call("Share", [.string(""), .vardict(items), .vardict([:])], on: app)
        let mine = try await sheet.shows.next("the owner's Show")
        #expect(mine.activityIDs.contains("org.test.app.own"))
        #expect(!mine.activityIDs.contains("org.test.app.public"))
        mine.dismiss()
        _ = try await f.call("Share", [.string(""), .vardict(items), .vardict([:])], on: stranger)
        let theirs = try await sheet.shows.next("the stranger's Show")
        #expect(!theirs.activityIDs.contains("org.test.app.own"))
        #expect(theirs.activityIDs.contains("org.test.app.public"))
        theirs.dismiss()
    }

    @Test("visibility must be a string naming others or owner")
    func badVisibility() async throws {
        let (f, app) = try await Self.start()
        for value: Value in [.string("everyone"), .string(""), .boolean(true)] {
            do {
                try await f.register("org.test.bad", extra: ["visibility": value], on: app)
                Issue.record("visibility \(value) was accepted")
            } catch {
                #expect(error.name == Self.error + "InvalidArgument", "\(value)")
            }
        }
    }
}
