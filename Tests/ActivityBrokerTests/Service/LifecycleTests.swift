// The daemon's life: SIGTERM, a second broker with and without --replace, D-Bus activation,
// and the bus going away.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Broker process lifecycle")
struct LifecycleTests {
    @Test("SIGTERM and SIGINT end the broker with status 0 and release the name")
    func signalsExitZero() async throws {
        let f = try await BrokerFixture()
        let owners = Inbox<String?>()
        _ = f.client.watchNameOwner(BrokerFixture.busName) { owners.put($0) }
        #expect(try await owners.next("the current owner") != nil)
        #expect(try await f.stopBroker() == .exited(0))
        #expect(try await owners.next("the name released") == nil)
        // The pipe's reader may still be behind the exit under load: wait for the last line.
        try await waitUntil("the broker's last log line") { f.broker.standardError.contains("stopped") }

        try await f.startBroker()
        f.broker.send(SIGINT)
        #expect(try await f.broker.exit() == .exited(0))
    }

    @Test("A second broker without --replace fails with a message; the first keeps the name")
    func secondBrokerFails() async throws {
        let f = try await BrokerFixture()
        let first = f.broker
        let owner = try await f.client.call(
            MethodCall(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
                body: [.string(BrokerFixture.busName.rawValue)])
        ).first?.string
        let second = try f.launchBroker()
        let end = try await second.exit()
        #expect(end != .exited(0))
        #expect(second.standardError.contains("--replace"), "\(second.standardError)")
        #expect(first.termination == nil)
        let ownerAfter = try await f.client.call(
            MethodCall(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
                body: [.string(BrokerFixture.busName.rawValue)])
        ).first?.string
        #expect(owner == ownerAfter)
        #expect(try await f.registered().isEmpty)
    }

    @Test("--replace takes the name over and the first broker exits 0")
    func replaceTakesOver() async throws {
        let f = try await BrokerFixture(builtin: ["a.json": TestManifest.json(id: "org.test.a")])
        let first = f.broker
        let owners = Inbox<String?>()
        _ = f.client.watchNameOwner(BrokerFixture.busName) { owners.put($0) }
        let firstOwner = try await owners.next("the first owner")
        try await f.startBroker(arguments: ["--replace"])
        #expect(try await first.exit() == .exited(0))
        try await waitUntil("the name to move") {
            owners.items.last.flatMap { $0 } != firstOwner && owners.items.last != nil
        }
        #expect(f.broker.termination == nil)
        #expect(try await f.offered("https://example.org/") == ["org.test.a"])
    }

    @Test("D-Bus activation: the first call with auto-start starts the broker from its .service file")
    func dbusActivation() async throws {
        let f = try await BrokerFixture(
            builtin: ["a.json": TestManifest.json(id: "org.test.a")], start: false, serviceDirectory: true)
        let environment = f.brokerEnvironment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }
            .sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'" }.joined(separator: "\n")
        let broker = try BuiltProducts.executable("activity-broker")
        // The daemon gives the service DBUS_SESSION_BUS_ADDRESS itself; the broker uses the
        // session bus by default, as it would under the real activation file.
        let wrapper = """
            #!/bin/sh
            \(environment)
            exec \(broker) --extensions-dir \(f.builtinExtensions) --opener \(f.root)/bin/opener 2>>\(f.output("activated.log"))

            """
        try f.write(wrapper, to: "bin/activate-broker", mode: 0o755)
        try f.write(
            "[D-BUS Service]\nName=org.activitybroker.Broker1\nExec=\(f.root)/bin/activate-broker\n",
            to: "services/org.activitybroker.Broker1.service")

        let ids = try await f.offered("https://example.org/")
        #expect(ids == ["org.test.a"])
        let pid = try await f.client.unixProcessID(of: BrokerFixture.busName.rawValue)
        #expect(pid > 0)
        // The bus hands queued calls over as soon as the name is granted, maybe before the
        // broker has read the RequestName reply and logged it: wait for the line.
        try await waitUntil("the activated broker's log line") {
            f.read(f.output("activated.log"))?.contains("owns org.activitybroker.Broker1") == true
        }
        // Stop it (it is not our child): SIGTERM, then wait for the name to go.
        let owners = Inbox<String?>()
        _ = f.client.watchNameOwner(BrokerFixture.busName) { owners.put($0) }
        #expect(try await owners.next() != nil)
        kill(pid_t(pid), SIGTERM)
        #expect(try await owners.next("the activated broker to exit") == nil)
    }

    @Test("Regression: the broker exits when its bus goes away instead of running on as an orphan")
    func brokerExitsWhenBusGoesAway() async throws {
        let f = try await BrokerFixture()
        await f.bus.stopOffPool()
        #expect(try await f.broker.exit() == .exited(0))
        #expect(f.broker.standardError.contains("bus"), "\(f.broker.standardError)")
    }

    @Test(
        "Regression: a broker replaced with --replace ends its running jobs (Finished, child killed) before exiting"
    )
    func replacedBrokerEndsItsJobs() async throws {
        let f = try await BrokerFixture(start: false)
        let pidFile = f.output("pid")
        try f.write(
            TestManifest.json(
                id: "org.test.slow",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "echo $$ > \(pidFile).part; mv \(pidFile).part \(pidFile); exec sleep 120",
                ])),
            to: "builtin/slow.json")
        let first = try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.slow", ["url": .string("https://example.org/")])
        try await waitUntil("the child to write its pid") { FileManager.default.fileExists(atPath: pidFile) }
        let pid = try #require(pid_t((f.read(pidFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        try await f.startBroker(arguments: ["--replace"])
        #expect(try await first.exit() == .exited(0))
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        try await waitUntil("the child \(pid) to be gone") { kill(pid, 0) != 0 && errno == ESRCH }
    }

    @Test("Bad command lines exit 2 naming the argument; an unreachable bus exits 1 naming the address")
    func badStarts() async throws {
        let f = try await BrokerFixture(start: false)
        let broker = try BuiltProducts.executable("activity-broker")
        for (arguments, word) in [
            (["--frobnicate"], "--frobnicate"), (["--bus"], "--bus"), (["--job-afterlife", "soon"], "soon"),
            (["--gesture-window", "0"], "--gesture-window needs a number of seconds from 0.001 to 3600"),
            (["--opener", "   "], "--opener"),
        ] {
            let run = try await ChildProcess.run(broker, arguments, environment: f.brokerEnvironment)
            #expect(run.termination == .exited(2), "\(arguments)")
            #expect(run.standardError.contains(word), "\(arguments): \(run.standardError)")
        }
        let help = try await ChildProcess.run(broker, ["--help"], environment: f.brokerEnvironment)
        #expect(help.termination == .exited(0))
        #expect(help.standardOutput.contains("--extensions-dir"))
        #expect(!help.standardOutput.contains("--job-afterlife"), "a testing aid, not advertised")
        #expect(!help.standardOutput.contains("--gesture-window"), "a testing aid, not advertised")

        let nowhere = "unix:path=\(f.root)/no-such-socket"
        let run = try await ChildProcess.run(broker, ["--bus", nowhere], environment: f.brokerEnvironment)
        #expect(run.termination == .exited(1))
        #expect(run.standardError.contains("no-such-socket"), "\(run.standardError)")
    }
}
