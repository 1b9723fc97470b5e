// Jobs belong to their caller (issue 11 items 9, 11): unguessable paths, private properties and signals, a global cap.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Job privacy and limits")
struct JobPrivacyTests {
    static let items: [String: Value] = ["url": .string("https://example.org/private-job")]

    static func start(arguments: [String] = []) async throws -> BrokerFixture {
        let f = try await BrokerFixture(start: false)
        try f.write(TestManifest.json(id: "org.test.quick"), to: "builtin/quick.json")
        try f.write(TestManifest.json(id: "org.test.slow", perform: TestManifest.exec(["sleep", "120"])), to: "builtin/slow.json")
        try await f.startBroker(arguments: arguments)
        return f
    }

    @Test("Job paths carry 128 random bits and are not listed in the broker's introspection")
    func jobPathsAreNotGuessable() async throws {
        let f = try await Self.start()
        let first = try await f.perform("org.test.slow", Self.items)
        let second = try await f.perform("org.test.slow", Self.items)
        for job in [first, second] {
            let token = job.rawValue.dropFirst("/org/activitybroker/Broker1/job/".count)
            #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(job)")
        }
        #expect(first != second)
        let xml = try await f.call("Introspect", path: "/org/activitybroker/Broker1", interface: .introspectable).first?.string ?? ""
        #expect(!xml.contains(#"<node name="job""#), "\(xml)")
        #expect(
            await f.errorName("Introspect", path: "/org/activitybroker/Broker1/job", interface: .introspectable)
                == DBusError.unknownObjectName)
    }

    @Test("PropertiesChanged(State) is unicast to the caller: a second client with a match rule gets nothing")
    func propertiesChangedIsUnicast() async throws {
        let f = try await Self.start()
        let other = try f.bus.connect()
        let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        let mine = Inbox<IncomingSignal>()
        let theirs = Inbox<IncomingSignal>()
        _ = f.client.addMatch(rule) { mine.put($0) }
        _ = other.addMatch(rule) { theirs.put($0) }
        let finished = f.finishedSignals()
        let finishedElsewhere = f.finishedSignals(on: other)
        try await f.settle()
        try await f.settle(on: other)
        let job = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        try await f.settle()
        #expect(mine.items.contains { $0.path == job })
        // Any broadcast the broker sent before this reply would have reached `other` by now.
        try await f.settle(on: other)
        #expect(theirs.items.filter { $0.path == job }.isEmpty)
        #expect(finishedElsewhere.items.isEmpty)
    }

    @Test("Another connection cannot read a job's properties (Get and GetAll: AccessDenied)")
    func propertiesAreTheCallers() async throws {
        let f = try await Self.start()
        let other = try f.bus.connect()
        let job = try await f.perform("org.test.slow", Self.items)
        let interface = BrokerFixture.jobInterface.rawValue
        #expect(try await f.property("State", path: job, interface: BrokerFixture.jobInterface) == .string("running"))
        #expect(
            await f.errorName("Get", [.string(interface), .string("ActivityId")], on: other, path: job, interface: .properties)
                == BrokerFixture.errorPrefix + "AccessDenied")
        #expect(
            await f.errorName("GetAll", [.string(interface)], on: other, path: job, interface: .properties)
                == BrokerFixture.errorPrefix + "AccessDenied")
    }

    @Test("A global cap on running jobs across callers: LimitExceeded naming it, room again after one ends")
    func globalRunningJobCap() async throws {
        let f = try await Self.start(arguments: ["--max-running-jobs", "3"])
        let callers = try (0..<3).map { _ in try f.bus.connect() }
        var jobs: [ObjectPath] = []
        for caller in callers {
            jobs.append(try await f.perform("org.test.slow", Self.items, on: caller))
        }
        let fourth = try f.bus.connect()
        do {
            _ = try await f.perform("org.test.slow", Self.items, on: fourth)
            Issue.record("a fourth running job was accepted")
        } catch let error as DBusError {
            #expect(error.name == BrokerFixture.errorPrefix + "LimitExceeded")
            #expect(error.message.contains("at most 3"), "\(error.message)")
        }
        let finished = f.finishedSignals(on: callers[0])
        try await f.settle(on: callers[0])
        try await f.call("Cancel", on: callers[0], path: jobs[0], interface: BrokerFixture.jobInterface)
        _ = try await f.finished(jobs[0], in: finished)
        _ = try await f.perform("org.test.quick", Self.items, on: fourth)
    }
}
