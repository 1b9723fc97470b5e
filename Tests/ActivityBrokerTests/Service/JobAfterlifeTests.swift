// A finished job's afterlife (API.md §6): readable by its caller only, gone after it, and how its end is announced.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Job afterlife")
struct JobAfterlifeTests {
    static let items: [String: Value] = ["url": .string("https://example.org/afterlife")]
    static let job = BrokerFixture.jobInterface

    /// A broker with `org.test.quick` (exits 0) and `org.test.broken` (exits 3), finished jobs
    /// kept `afterlife` seconds.
    static func start(afterlife: String) async throws -> BrokerFixture {
        let f = try await BrokerFixture(start: false)
        try f.write(TestManifest.json(id: "org.test.quick"), to: "builtin/quick.json")
        try f.write(
            TestManifest.json(id: "org.test.broken", perform: TestManifest.exec(["/bin/sh", "-c", "exit 3"])),
            to: "builtin/broken.json")
        try await f.startBroker(arguments: ["--job-afterlife", afterlife])
        return f
    }

    /// `Properties.Get(Job1, name)` at `job` from `connection`: the error name, nil on success.
    static func getError(_ f: BrokerFixture, _ name: String, at job: ObjectPath, on connection: Connection? = nil) async
        -> String?
    {
        await f.errorName("Get", [.string(Self.job.rawValue), .string(name)], on: connection, path: job, interface: .properties)
    }

    @Test("Within the afterlife a finished job answers its caller (State, ActivityId, GetAll, a no-op Cancel) and no one else")
    func readableByItsCallerOnly() async throws {
        // Long enough for every read below on a loaded machine; the end is the next test's.
        let f = try await Self.start(afterlife: "60")
        let stranger = try f.bus.connect()
        let finished = f.finishedSignals()
        let quick = try await f.perform("org.test.quick", Self.items)
        let broken = try await f.perform("org.test.broken", Self.items)
        #expect(try await f.finished(quick, in: finished).state == "completed")
        #expect(try await f.finished(broken, in: finished).state == "failed")

        #expect(try await f.property("State", path: quick, interface: Self.job) == .string("completed"))
        #expect(try await f.property("ActivityId", path: quick, interface: Self.job) == .string("org.test.quick"))
        #expect(try await f.property("State", path: broken, interface: Self.job) == .string("failed"))
        let all = try await f.call("GetAll", [.string(Self.job.rawValue)], path: broken, interface: .properties)
        #expect(all.first?.unwrapped.vardict?["ActivityId"]?.unwrapped == .string("org.test.broken"))
        #expect(all.first?.unwrapped.vardict?["State"]?.unwrapped == .string("failed"))
        // Too late to cancel: nothing happens, and no second Finished.
        try await f.call("Cancel", path: quick, interface: Self.job)
        #expect(try await f.property("State", path: quick, interface: Self.job) == .string("completed"))

        let denied = BrokerFixture.errorPrefix + "AccessDenied"
        #expect(await Self.getError(f, "State", at: quick, on: stranger) == denied)
        #expect(
            await f.errorName("GetAll", [.string(Self.job.rawValue)], on: stranger, path: quick, interface: .properties)
                == denied)
        #expect(await f.errorName("Cancel", on: stranger, path: quick, interface: Self.job) == denied)

        // A path below the jobs that no job had is no object at all.
        let unknown = try ObjectPath("/org/activitybroker/Broker1/job/" + String(repeating: "0", count: 32))
        #expect(await Self.getError(f, "State", at: unknown) == DBusError.unknownObjectName)
        #expect(await Self.getError(f, "State", at: "/org/activitybroker/Broker1/job/nope") == DBusError.unknownObjectName)
        try await f.settle()
        #expect(finished.items.filter { $0.path == quick }.count == 1)
    }

    @Test("Every finished job is gone once its afterlife is over, and not before")
    func goneAfterTheAfterlife() async throws {
        // 30 s, and each job read right after its own Finished: with 3 s and the reads after
        // all three jobs, a loaded CI machine once took longer than the first job's afterlife
        // before reading it (UnknownObject); and while the whole suite starts, one test's next
        // step has come 25 s after its previous one (SignalTests), more than the 5 s tried next.
        let afterlife = 30.0
        let f = try await Self.start(afterlife: "30")
        let finished = f.finishedSignals()
        var jobs: [ObjectPath] = []
        var firstEnded: ContinuousClock.Instant?
        for _ in 0..<3 {
            let job = try await f.perform("org.test.quick", Self.items)
            #expect(try await f.finished(job, in: finished).state == "completed")
            // The broker dates the afterlife from before it sent Finished, so the first job
            // must still be there for nearly the whole afterlife after its Finished arrived.
            if firstEnded == nil { firstEnded = .now }
            #expect(try await f.property("State", path: job, interface: Self.job) == .string("completed"))
            jobs.append(job)
        }
        for job in jobs {
            try await waitUntil("\(job) to go", deadline: .seconds(afterlife + 30)) {
                await Self.getError(f, "State", at: job) == DBusError.unknownObjectName
            }
        }
        let lasted = try #require(firstEnded).duration(to: .now)
        #expect(lasted >= .seconds(afterlife - 1), "the jobs went after \(lasted)")
        // New jobs still get rows of their own.
        let next = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(next, in: finished).state == "completed")
        #expect(try await f.property("State", path: next, interface: Self.job) == .string("completed"))
    }

    @Test("A job's end reaches its caller as Finished first, then PropertiesChanged(State) with the same state (docs/dbus-api.md)")
    func finishedBeforeStateChange() async throws {
        let f = try await Self.start(afterlife: "60")
        let both = Inbox<IncomingSignal>()
        _ = f.client.addMatch(MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")) {
            both.put($0)
        }
        _ = f.client.addMatch(MatchRule(interface: Self.job, member: "Finished")) { both.put($0) }
        try await f.settle()
        for id in ["org.test.quick", "org.test.broken"] {
            let job = try await f.perform(id, Self.items)
            try await waitUntil("PropertiesChanged of \(job)") {
                both.items.contains { $0.path == job && $0.member == "PropertiesChanged" }
            }
            let ofJob = both.items.filter { $0.path == job }
            #expect(ofJob.map(\.member) == ["Finished", "PropertiesChanged"], "\(ofJob.map(\.member))")
            let changed = ofJob.last?.body.dropFirst().first?.vardict?["State"]?.unwrapped
            #expect(changed == ofJob.first?.body.first, "State in PropertiesChanged is Finished's state")
        }
    }
}
