// Job1 objects: State transitions, Cancel by owner and stranger, one Finished, the afterlife.
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Job1")
struct JobTests {
    static let items: [String: Value] = ["url": .string("https://example.org/job-secret")]

    /// A broker with `org.test.quick` (exits 0) and `org.test.slow` (writes its pid to
    /// `out/pid`, then sleeps until killed).
    static func start(arguments: [String] = []) async throws -> BrokerFixture {
        let f = try await BrokerFixture(start: false)
        try f.write(TestManifest.json(id: "org.test.quick"), to: "builtin/quick.json")
        try f.write(
            TestManifest.json(
                id: "org.test.slow",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "echo $$ > \(f.output("pid.part")); mv \(f.output("pid.part")) \(f.output("pid")); exec sleep 120",
                ])),
            to: "builtin/slow.json")
        try await f.startBroker(arguments: arguments)
        return f
    }

    static func state(_ f: BrokerFixture, _ job: ObjectPath) async throws -> String? {
        try await f.property("State", path: job, interface: BrokerFixture.jobInterface).string
    }

    /// Whether a process with this pid exists (a zombie counts: the broker must reap it).
    static func processExists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    @Test("State goes running → completed, announced with PropertiesChanged; ActivityId is the activity")
    func stateTransitions() async throws {
        let f = try await Self.start()
        let changes = f.signals("PropertiesChanged", interface: .properties)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await f.perform("org.test.slow", Self.items)
        #expect(try await Self.state(f, job) == "running")
        #expect(
            try await f.property("ActivityId", path: job, interface: BrokerFixture.jobInterface)
                == .string("org.test.slow"))
        try await f.call("Cancel", path: job, interface: BrokerFixture.jobInterface)
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        #expect(try await Self.state(f, job) == "cancelled")

        let quick = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(quick, in: finished).state == "completed")
        #expect(try await Self.state(f, quick) == "completed")
        try await f.settle()
        let stateChanges = changes.items.filter { $0.path == quick }.compactMap {
            $0.body.dropFirst().first?.vardict?["State"]?.string
        }
        #expect(stateChanges == ["completed"])
    }

    @Test("Cancel by a stranger is AccessDenied and changes nothing")
    func strangerCannotCancel() async throws {
        let f = try await Self.start()
        let stranger = try f.bus.connect()
        let job = try await f.perform("org.test.slow", Self.items)
        #expect(
            await f.errorName("Cancel", on: stranger, path: job, interface: BrokerFixture.jobInterface)
                == BrokerFixture.errorPrefix + "AccessDenied")
        #expect(try await Self.state(f, job) == "running")
        // Nor may it read the job's properties (issue 11 item 11): what someone shared to is theirs.
        for member: MemberName in ["Get", "GetAll"] {
            let body: [Value] =
                member == "Get" ? [.string(BrokerFixture.jobInterface.rawValue), .string("ActivityId")]
                : [.string(BrokerFixture.jobInterface.rawValue)]
            #expect(
                await f.errorName(member, body, on: stranger, path: job, interface: .properties)
                    == BrokerFixture.errorPrefix + "AccessDenied")
        }
    }

    @Test("Cancel by the owner sends Finished(cancelled) and kills the exec child")
    func ownerCancelKillsChild() async throws {
        let f = try await Self.start()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.slow", Self.items)
        try await waitUntil("the child to write its pid") {
            FileManager.default.fileExists(atPath: f.output("pid"))
        }
        let pid = try #require(
            pid_t((f.read(f.output("pid")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Self.processExists(pid))
        try await f.call("Cancel", path: job, interface: BrokerFixture.jobInterface)
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        try await waitUntil("the child \(pid) to be gone") { !Self.processExists(pid) }
        #expect(f.logOmits("job-secret"))
    }

    @Test("Exactly one Finished per job, whatever comes after the end (cancel, a second cancel)")
    func exactlyOneFinished() async throws {
        let f = try await Self.start()
        let finished = f.finishedSignals()
        let quick = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(quick, in: finished).state == "completed")
        try await f.call("Cancel", path: quick, interface: BrokerFixture.jobInterface)  // too late: no effect
        let slow = try await f.perform("org.test.slow", Self.items)
        try await f.call("Cancel", path: slow, interface: BrokerFixture.jobInterface)
        try await f.call("Cancel", path: slow, interface: BrokerFixture.jobInterface)
        #expect(try await f.finished(slow, in: finished).state == "cancelled")
        try await f.settle()
        #expect(finished.items.filter { $0.path == quick }.count == 1)
        #expect(finished.items.filter { $0.path == slow }.count == 1)
        #expect(try await Self.state(f, quick) == "completed")
    }

    @Test("A job's started and ended lines (written in batches) reach the log in order, before the broker's last line")
    func jobLinesAreWrittenAtExit() async throws {
        let f = try await Self.start()
        let finished = f.finishedSignals()
        let quick = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(quick, in: finished).state == "completed")
        // Stopped at once: the job's lines may still wait for their batch, and go out first.
        #expect(try await f.stopBroker() == .exited(0))
        try await waitUntil("the broker's last log line") { f.log.contains("activity-broker: stopped") }
        let lines = f.log.split(separator: "\n")
        let started = lines.firstIndex { $0.hasSuffix("job 1: org.test.quick started (by \(f.client.uniqueName))") }
        let ended = lines.firstIndex { $0.hasSuffix("job 1: org.test.quick completed") }
        let stopped = lines.firstIndex { $0.hasSuffix("activity-broker: stopped") }
        #expect(started != nil && ended != nil, "\(lines)")
        if let started, let ended, let stopped { #expect(started < ended && ended < stopped, "\(lines)") }
    }

    @Test("A finished job object disappears after the afterlife (--job-afterlife)")
    func afterlife() async throws {
        // (Other tests read State after Finished with the default 60 s afterlife.) Long enough
        // that reading State right after Finished works on a loaded machine.
        let f = try await Self.start(arguments: ["--job-afterlife", "3"])
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.quick", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        try await waitUntil("the job object to go") {
            await f.errorName(
                "Get", [.string("org.activitybroker.Job1"), .string("State")], path: job,
                interface: .properties)
                == DBusError.unknownObjectName
        }
        // Numbers are not reused.
        let next = try await f.perform("org.test.quick", Self.items)
        #expect(next != job)
    }

    @Test("Running jobs are cancelled on SIGTERM: the caller gets Finished(cancelled), the child dies")
    func shutdownCancelsJobs() async throws {
        let f = try await Self.start()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.slow", Self.items)
        try await waitUntil("the child to write its pid") {
            FileManager.default.fileExists(atPath: f.output("pid"))
        }
        let pid = try #require(
            pid_t((f.read(f.output("pid")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await f.stopBroker() == .exited(0))
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        try await waitUntil("the child \(pid) to be gone") { !Self.processExists(pid) }
    }
}
