// Performs waiting for the bus's activatable names are bounded by the running-job limits; activation_token has a length cap.
import DBus
import Foundation
import TestSupport
import Testing

/// A `Perform` of an activity whose bus name is not known waits for one `ListActivatableNames`
/// round trip before it is refused or run, keeping its items meanwhile. Nothing bounded how many
/// waited: each now holds a place among its caller's running jobs (64) and the broker's (256),
/// given back when the answer comes. `activation_token`, which goes on to what the broker
/// starts and which a waiting call keeps, had no length limit: now 4 KiB.
@Suite("Performs waiting on the bus, and activation_token, are bounded")
struct PerformWaitLimitTests {
    static let items: [String: Value] = ["url": .string("https://example.org/waiting")]
    static let limitExceeded = BrokerFixture.errorPrefix + "LimitExceeded"
    static let unavailable = BrokerFixture.errorPrefix + "Unavailable"
    static let invalidArgument = BrokerFixture.errorPrefix + "InvalidArgument"

    /// A broker with `org.test.never` (a D-Bus service nobody owns or can start: every Perform of
    /// it waits for the bus, then is Unavailable) and a provider whose `org.test.hangs` never answers.
    static func start(arguments: [String] = []) async throws -> (BrokerFixture, TestProvider) {
        let f = try await BrokerFixture(
            builtin: [
                "never.json": TestManifest.json(
                    id: "org.test.never", perform: #"{"dbus": {"name": "org.test.Never", "path": "/org/test/Never"}}"#)
            ], arguments: arguments)
        let provider = try TestProvider(bus: f.bus) { _ in .hang }
        try await f.register("org.test.hangs", on: provider.connection)
        return (f, provider)
    }

    @Test("Regression: Performs waiting for the bus's names were unbounded; each holds a place among its caller's running jobs")
    func waitingPerformHoldsARunningPlace() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        for _ in 0..<63 { _ = try await f.perform("org.test.hangs", Self.items) }
        // The 64th place: held while it waits, given back with the answer.
        #expect(await f.errorName("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict([:])]) == Self.unavailable)
        _ = try await f.perform("org.test.hangs", Self.items)
        // No place left: refused before it waits, as a job would be.
        #expect(await f.errorName("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict([:])]) == Self.limitExceeded)
        // Another caller's places are its own.
        let other = try f.bus.connect()
        defer { other.close() }
        #expect(
            await f.errorName("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict([:])], on: other)
                == Self.unavailable)
    }

    @Test("Performs waiting for the bus count against the broker-wide running-job limit")
    func waitingPerformCountsBrokerWide() async throws {
        let (f, provider) = try await Self.start(arguments: ["--max-running-jobs", "2"])
        defer { withExtendedLifetime(provider) {} }
        let others = try (0..<2).map { _ in try f.bus.connect() }
        defer { for other in others { other.close() } }
        #expect(await f.errorName("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict([:])]) == Self.unavailable)
        for other in others { _ = try await f.perform("org.test.hangs", Self.items, on: other) }
        #expect(await f.errorName("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict([:])]) == Self.limitExceeded)
    }

    @Test("300 waiting Performs at once: each Unavailable or LimitExceeded, the broker answers on, no place is kept")
    func burstOfWaitingPerforms() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        let items = Self.items.merging(["text": .string(String(repeating: "t", count: 60_000))]) { $1 }
        let answers = Inbox<String?>()
        let calls = 300
        for _ in 0..<calls {
            _ = f.client.call(
                MethodCall(
                    destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                    member: "Perform", body: [.string("org.test.never"), .vardict(items), .vardict([:])]),
                timeout: .seconds(60)
            ) { result in
                if case .failure(let error) = result { answers.put(error.name) } else { answers.put(nil) }
            }
        }
        var names: [String?] = []
        for _ in 0..<calls { names.append(try await answers.next("an answer", deadline: .seconds(60))) }
        #expect(Set(names).isSubset(of: [Self.unavailable, Self.limitExceeded]), "\(Set(names))")
        let other = try f.bus.connect()
        defer { other.close() }
        try await f.settle(on: other)
        // Every place was given back: the caller still has all 64.
        for _ in 0..<64 { _ = try await f.perform("org.test.hangs", Self.items) }
    }

    @Test("Regression: activation_token had no length limit; over 4 KiB it is InvalidArgument naming it (Perform, Share, Browse)")
    func activationTokenIsCapped() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        let longest = String(repeating: "k", count: 4096)
        let tooLong: [String: Value] = ["activation_token": .string(longest + "k")]
        func refusal(_ member: MemberName, _ body: [Value]) async -> DBusError? {
            do {
                try await f.call(member, body)
                return nil
            } catch {
                return error
            }
        }
        for (member, body): (MemberName, [Value]) in [
            ("Perform", [.string("org.test.hangs"), .vardict(Self.items), .vardict(tooLong)]),
            // Checked before the call waits for the bus.
            ("Perform", [.string("org.test.never"), .vardict(Self.items), .vardict(tooLong)]),
            ("Share", [.string(""), .vardict(Self.items), .vardict(tooLong)]),
            ("Browse", [.string(""), .string("https://example.org/"), .vardict(tooLong)]),
        ] {
            let error = await refusal(member, body)
            #expect(error?.name == Self.invalidArgument, "\(member): \(String(describing: error))")
            #expect(error?.message.contains("activation_token") == true, "\(member): \(String(describing: error))")
        }
        _ = try await f.perform("org.test.hangs", Self.items, options: ["activation_token": .string(longest)])
        let call = try await provider.calls.next()
        #expect(call.options["activation_token"] == .string(longest))
    }
}
