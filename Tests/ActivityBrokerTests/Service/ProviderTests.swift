// Dynamic providers (TestProvider): completion, failure, hang, disconnect, cancel, and Finished privacy.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Dynamic providers")
struct ProviderTests {
    static let items: [String: Value] = [
        "url": .string("https://example.org/provider-secret"), "title": .string("Secret title"),
    ]

    static func start() async throws -> (BrokerFixture, TestProvider) {
        let f = try await BrokerFixture()
        let provider = try TestProvider(bus: f.bus) { id in
            switch id {
            case "org.test.completes":
                .reply(state: "completed", results: ["shared_to": .string("friend"), "count": .uint32(2)])
            case "org.test.cancels": .reply(state: "cancelled", results: [:])
            case "org.test.fails": .fail(DBusError(name: "org.example.Error.Boom", message: "it broke"))
            default: .hang
            }
        }
        for id in ["org.test.completes", "org.test.cancels", "org.test.fails", "org.test.hangs"] {
            try await f.register(id, on: provider.connection)
        }
        return (f, provider)
    }

    @Test("A provider that completes: the items reach it, its results pass through in Finished")
    func completes() async throws {
        let (f, provider) = try await Self.start()
        let finished = f.finishedSignals()
        let job = try await f.perform(
            "org.test.completes", Self.items, options: ["activation_token": .string("tok")])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "completed")
        #expect(end.results == ["shared_to": .string("friend"), "count": .uint32(2)])
        let call = try await provider.calls.next()
        #expect(call.id == "org.test.completes")
        #expect(call.items["url"] == Self.items["url"])
        #expect(call.items["title"] == Self.items["title"])
        #expect(call.options["activation_token"] == .string("tok"))

        let cancelled = try await f.perform("org.test.cancels", Self.items)
        #expect(try await f.finished(cancelled, in: finished).state == "cancelled")
        #expect(f.logOmits("provider-secret", "Secret title"))
    }

    @Test("A provider's D-Bus error fails the job with ProviderFailed")
    func fails() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.fails", Self.items)
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed")
        #expect(
            try await f.property("State", path: job, interface: BrokerFixture.jobInterface)
                == .string("failed"))
        #expect(f.logOmits("provider-secret", "Secret title"))
    }

    @Test("A provider that hangs past the Perform timeout (30 s) fails the job with Timeout")
    func hangs() async throws {
        let (f, provider) = try await Self.start()
        let finished = f.finishedSignals()
        let started = ContinuousClock.now
        // 30 s, not 1 s: State is read as running after the provider's call arrives, and while
        // the whole suite starts a test's next step can come 25 s after its previous one.
        let job = try await f.perform("org.test.hangs", Self.items, options: ["timeout": .uint32(30)])
        _ = try await provider.calls.next("the provider to be called")
        #expect(
            try await f.property("State", path: job, interface: BrokerFixture.jobInterface)
                == .string("running"))
        // The job's 30 s and then the standard wait for its Finished.
        let end = try await f.finished(job, in: finished, deadline: .after(.seconds(30) + Deadline.standardWait))
        #expect(end.state == "failed")
        #expect(end.results["error"]?.string == BrokerFixture.errorPrefix + "Timeout")
        #expect(ContinuousClock.now - started >= .milliseconds(29_900))
        // The broker keeps serving.
        #expect(try await f.registered().count == 4)
    }

    @Test("A provider leaving the bus mid-call fails the job promptly and drops its activities")
    func disconnects() async throws {
        let (f, provider) = try await Self.start()
        let finished = f.finishedSignals()
        let changed = f.signals("ActivitiesChanged", interface: BrokerFixture.interface)
        try await f.settle()
        let job = try await f.perform("org.test.hangs", Self.items)  // default timeout: 300 s
        _ = try await provider.calls.next("the provider to be called")
        let left = ContinuousClock.now
        provider.connection.close()
        let end = try await f.finished(job, in: finished)
        // Promptly: the job's own timeout (300 s) is what a broker that missed the provider
        // leaving would wait for; 5 s was a bound on the machine's speed (7.7 s seen under load).
        #expect(ContinuousClock.now - left < .seconds(30))
        #expect(end.state == "failed")
        #expect(end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed")
        _ = try await changed.next("ActivitiesChanged after the owner left")
        #expect(try await f.registered().isEmpty)
    }

    @Test("Another connection with a match for Finished does not receive the caller's Finished")
    func finishedIsUnicast() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        let stranger = try f.bus.connect()
        let overheard = f.finishedSignals(on: stranger)
        let overheardChanges = f.signals("PropertiesChanged", interface: .properties, on: stranger)
        try await f.settle(on: stranger)

        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.completes", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        try await f.settle(on: stranger)
        #expect(overheard.count == 0)
        // PropertiesChanged of a job says only its state, never the items.
        for signal in overheardChanges.items {
            #expect(!"\(signal.body)".contains("provider-secret"))
        }
    }

    @Test("Regression: a dbus-manifest provider leaving mid-call was reported as Timeout, not ProviderFailed")
    func providerLeavingIsNotATimeout() async throws {
        // A manifest provider has no disconnect watch: the bus's NoReply error ("recipient
        // disconnected") is all the broker learns, and it must not read that as a timeout.
        let f = try await BrokerFixture(builtin: [
            "app.json": TestManifest.json(
                id: "org.test.app", perform: #"{"dbus": {"name": "org.test.App", "path": "/test/provider"}}"#,
                requires: #"{"dbus_names": ["org.test.App"]}"#)
        ])
        let provider = try TestProvider(bus: f.bus) { _ in .hang }
        #expect(try await provider.connection.requestName("org.test.App") == .primaryOwner)
        try await waitUntil("org.test.app to become available") {
            try await f.offered("https://example.org/") == ["org.test.app"]
        }
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.app", Self.items)
        _ = try await provider.calls.next("the provider to be called")
        provider.connection.close()
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(
            end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed", "\(end.results)")
    }

    @Test("Cancel of a provider job ends it once: a late reply from the provider changes nothing")
    func cancelProviderJob() async throws {
        let (f, provider) = try await Self.start()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.hangs", Self.items)
        _ = try await provider.calls.next("the provider to be called")
        try await f.call("Cancel", path: job, interface: BrokerFixture.jobInterface)
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        provider.answerHeld(state: "completed")
        _ = try await provider.connection.call(
            MethodCall(
                destination: BrokerFixture.busName, path: BrokerFixture.path, interface: .peer, member: "Ping"
            ))
        try await f.settle()
        #expect(finished.items.filter { $0.path == job }.count == 1)
        #expect(
            try await f.property("State", path: job, interface: BrokerFixture.jobInterface)
                == .string("cancelled"))
        // A cancelled job is no use: the ranking did not move.
        #expect(try await f.stopBroker() == .exited(0))
        #expect(f.read(f.usageFile)?.contains("org.test.hangs") != true)
    }

    /// The caller reads its job's path before its `Finished`, however fast the provider answers
    /// (the reply goes out before the provider's call; a reordering for speed must keep this).
    /// Read on a plain libdbus connection, in the order the bus delivered.
    @Test("The Perform reply reaches the caller before Finished, with a provider that answers at once")
    func replyBeforeFinished() async throws {
        let (f, provider) = try await Self.start()
        defer { withExtendedLifetime(provider) {} }
        let caller = try BlockingConnection(address: f.bus.address)
        try caller.addMatch(MatchRule(interface: BrokerFixture.jobInterface, member: "Finished"))
        let perform = try EncodedCall(
            MethodCall(
                destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                member: "Perform", body: [.string("org.test.completes"), .vardict(Self.items), .vardict([:])]))
        for _ in 0..<20 {
            let serial = caller.send(perform)
            caller.flush()
            var order: [String] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while order.count < 2, let message = caller.next(until: deadline) {
                if message.kind == .methodReturn, message.replySerial == serial { order.append("reply") }
                if message.member == "Finished" { order.append("Finished") }
            }
            #expect(order == ["reply", "Finished"])
        }
    }
}
