// BrokerError: broker error names map to typed cases, unknown names are kept, the real broker's errors arrive typed.
import ActivityBrokerClient
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct BrokerErrorTests {
    @Test(arguments: [
        ("InvalidArgument", BrokerError.invalidArgument("m")), ("NotFound", .notFound("m")),
        ("NotApplicable", .notApplicable("m")), ("Unavailable", .unavailable("m")),
        ("AccessDenied", .accessDenied("m")), ("AlreadyExists", .alreadyExists("m")),
        ("LimitExceeded", .limitExceeded("m")), ("Timeout", .timeout("m")),
        ("ProviderFailed", .providerFailed("m")),
    ])
    func brokerNamesMapToTheirCase(name: String, expected: BrokerError) {
        let error = BrokerError(
            DBusError(name: "org.activitybroker.Error." + name, message: "m"), address: "bus")
        #expect(error == expected)
        #expect(error.name == "org.activitybroker.Error." + name)
        #expect(error.message == "m")
    }

    /// The service names its errors and the client reads them through one table: every name
    /// of it comes back as the domain error it was sent for, and as the client's typed case.
    @Test(arguments: BrokerErrorName.allCases)
    func everyNameOfTheTableRoundTrips(name: BrokerErrorName) {
        let sent = name.error("m")
        #expect(sent.dbusError.name == name.rawValue)
        #expect(BrokerErrorName(sent) == name)
        #expect(ActivityError(sent.dbusError) == sent)
        let received = BrokerError(sent.dbusError, address: "bus")
        #expect(received.name == name.rawValue)
        #expect(received.message == "m")
        if case .other = received { Issue.record("\(name.rawValue) arrived untyped") }
    }

    @Test(arguments: [
        "org.example.Error.Strange", "org.freedesktop.DBus.Error.InvalidArgs",
        "org.activitybroker.Error.Future",
    ])
    func unknownNamesAreKept(name: String) {
        let error = BrokerError(DBusError(name: name, message: "as it came"), address: "bus")
        #expect(error == .other(name: name, message: "as it came"))
        #expect(error.name == name)
    }

    @Test func noBrokerOnTheBusIsUnreachableAndNamesTheAddress() async throws {
        let bus = try await TestBus.start()
        let client = BrokerProxy(connection: try bus.connect(), address: bus.address)
        do {
            _ = try await client.registered()
            Issue.record("a bus without a broker answered")
        } catch {
            guard case .unreachable(let address, _, let name) = error else {
                Issue.record("expected .unreachable, got \(error)")
                return
            }
            #expect(address == bus.address)
            #expect(name == DBusError.serviceUnknownName)
            #expect(error.message.contains(bus.address))
        }
    }

    @Test func aMissingSocketIsUnreachable() throws {
        let address = "unix:path=/tmp/no-such-dir-\(UInt32.random(in: 0...UInt32.max))/bus"
        #expect(throws: BrokerError.self) { _ = try BrokerProxy.connect(bus: .address(address)) }
        // What libdbus said, e.g. NoServer or FileNotFound, not ServiceUnknown.
        var refused = ""
        do { _ = try Connection(bus: .address(address)) } catch { refused = error.name }
        do {
            _ = try BrokerProxy.connect(bus: .address(address))
        } catch {
            guard case .unreachable(let tried, _, _) = error else {
                Issue.record("expected .unreachable, got \(error)")
                return
            }
            #expect(tried == address)
            #expect(error.name == refused)
            #expect(error.name != DBusError.serviceUnknownName)
        }
    }

    /// Regression: every error that means no broker answered came back named `ServiceUnknown`;
    /// the client keeps the name as it came.
    @Test(arguments: [
        DBusError.serviceUnknownName, DBusError.nameHasNoOwnerName, DBusError.disconnectedName,
        "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.Spawn.ChildExited",
    ])
    func unreachableKeepsTheNameItCameWith(name: String) {
        let error = BrokerError(DBusError(name: name, message: "m"), address: "bus")
        guard case .unreachable(let address, let message, let kept) = error else {
            Issue.record("expected .unreachable, got \(error)")
            return
        }
        #expect((address, message, kept) == ("bus", "m", name))
        #expect(error.name == name)
    }

    /// `.unreachable(address:message:)` still builds one, named `ServiceUnknown`.
    @Test func unreachableWithoutANameIsServiceUnknown() {
        let error = BrokerError.unreachable(address: "bus", message: "m")
        #expect(error.name == DBusError.serviceUnknownName)
        #expect(error == .unreachable(address: "bus", message: "m", name: DBusError.serviceUnknownName))
    }

    @Test func theRealBrokerErrorsArriveTyped() async throws {
        let broker = try await BrokerHarness(
            bus: TestBus.start(),
            manifests: [
                "web.json": openManifest(
                    id: "test.web", name: "Web", template: "https://share.example/?u={url}")
            ])
        defer { broker.stopInBackground() }
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)

        await expectError("unknown id", { if case .notFound = $0 { true } else { false } }) {
            _ = try await client.perform("test.no-such", items: SharedItems(url: "https://example.org"))
        }
        await expectError("not applicable", { if case .notApplicable = $0 { true } else { false } }) {
            _ = try await client.perform("test.web", items: SharedItems(url: "ftp://example.org/file"))
        }
        await expectError("not a URL", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try await client.perform("test.web", items: SharedItems(url: "not a url"))
        }

        // Registering an id a manifest already has.
        let provider = ActivityProvider(connection: try broker.bus.connect())
        await expectError("taken id", { if case .alreadyExists = $0 { true } else { false } }) {
            try await provider.start([ProvidedActivity(id: "test.web", name: "Impostor") { _ in .completed }])
        }

        // Unregistering another connection's activity.
        let owner = ActivityProvider(connection: try broker.bus.connect())
        try await owner.start([ProvidedActivity(id: "test.owned", name: "Owned") { _ in .completed }])
        let other = try broker.bus.connect()
        await expectError("someone else's", { if case .accessDenied = $0 { true } else { false } }) {
            do {
                _ = try await other.call(
                    MethodCall(
                        destination: BrokerProxy.busName, path: BrokerProxy.objectPath,
                        interface: BrokerProxy.interface,
                        member: "UnregisterActivity", body: [.string("test.owned")]))
            } catch let error as DBusError {
                throw BrokerError(error, address: broker.bus.address)
            }
        }

        // A wrong signature is the bus's InvalidArgs, kept as it came.
        await expectError("wrong signature", { $0.name == "org.freedesktop.DBus.Error.InvalidArgs" }) {
            do {
                _ = try await other.call(
                    MethodCall(
                        destination: BrokerProxy.busName, path: BrokerProxy.objectPath,
                        interface: BrokerProxy.interface,
                        member: "Explain", body: [.int32(1)]))
            } catch let error as DBusError {
                throw BrokerError(error, address: broker.bus.address)
            }
        }
    }
}

/// Expects `body` to throw a `BrokerError` that `matches`.
private func expectError(
    _ what: String, _ matches: (BrokerError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("\(what): no error", sourceLocation: sourceLocation)
    } catch let error as BrokerError {
        #expect(
            matches(error), "\(what): got \(error.name): \(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what): not a BrokerError: \(error)", sourceLocation: sourceLocation)
    }
}
