// ActivityProvider and BrokerProxy against the real broker: perform round trips, failures, cancel, restarts.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

/// What a provider's handler saw.
private struct Seen: Sendable {
    var items: SharedItems
    var activationToken: String?
}

/// A unique activity id per test (the tests of a suite run in parallel, each on its own bus,
/// but unique ids keep a failure message unambiguous).
private func uniqueID(_ name: String) -> String { "test.\(name).\(UInt32.random(in: 0...UInt32.max))" }

@Suite(.timeLimit(.minutes(2))) struct ProviderTests {
    /// A provided activity whose handler says that it started, then never returns; registered
    /// with `broker` by a provider on a connection of its own, which `provider` keeps: a test
    /// holds the value for as long as the activity must stay registered.
    struct EndlessActivity {
        let id: String
        let started: Inbox<Void>
        let provider: ActivityProvider
    }

    static func endlessActivity(_ id: String, named name: String, on broker: BrokerHarness) async throws
        -> EndlessActivity
    {
        let id = uniqueID(id)
        let started = Inbox<Void>()
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: id, name: name) { _ in
                started.put(())
                try await Task.sleep(for: .seconds(3600))
                return .completed
            }
        ])
        return EndlessActivity(id: id, started: started, provider: provider)
    }

    /// `perform` of `id` in a task of its own, and the inbox its job's path goes to once the
    /// broker has named the job (`onStarted`).
    static func performInTask(_ id: String, with client: BrokerProxy)
        -> (task: Task<ActivityOutcome, any Error>, jobs: Inbox<ObjectPath>)
    {
        let jobs = Inbox<ObjectPath>()
        let task = Task {
            try await client.perform(id, items: SharedItems(url: "https://example.org")) { jobs.put($0) }
        }
        return (task, jobs)
    }

    /// The job's `State` as its caller reads it.
    static func state(of job: ObjectPath, on connection: Connection) async throws -> String? {
        let state = try await connection.call(
            MethodCall(
                destination: "org.activitybroker.Broker1", path: job,
                interface: "org.freedesktop.DBus.Properties",
                member: "Get", body: [.string("org.activitybroker.Job1"), .string("State")]))
        return state.first?.unwrapped.string
    }

    @Test func performReturnsTheProviderResults() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("echo")
        let seen = Inbox<Seen>()
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: id, name: "Echo", category: "share") { request in
                seen.put(Seen(items: request.items, activationToken: request.activationToken))
                return ActivityOutcome(
                    state: .completed,
                    results: [
                        "url": .string(request.items.url), "count": .integer(42), "saved": .boolean(true),
                        "ratio": .double(0.5),
                    ])
            }
        ])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let items = SharedItems(url: "https://example.org/a?b=c", title: "A title", text: "Some text")

        let offered = try await client.activities(for: items)
        #expect(offered.map(\.id) == [id])
        #expect(offered.first?.origin == "dbus")

        let outcome = try await client.perform(id, items: items, activationToken: "token-1")
        #expect(outcome.state == .completed)
        #expect(
            outcome.results == [
                "url": .string("https://example.org/a?b=c"), "count": .integer(42), "saved": .boolean(true),
                "ratio": .double(0.5),
            ])
        let request = try await seen.next("the handler's request")
        #expect(request.items == items)
        #expect(request.activationToken == "token-1")
    }

    /// `ProvidedActivity` once had no `priority`: an app could not set what API.md §3 offers.
    @Test func aProvidedActivitysPriorityRanksItAmongEquals() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let (low, high) = (uniqueID("alpha"), uniqueID("zeta"))
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: low, name: "Alpha", category: "share") { _ in .completed },
            ProvidedActivity(id: high, name: "Zeta", category: "share", priority: 5) { _ in .completed },
        ])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        // Unused and in one category, they would be in name order without the priority.
        let offered = try await client.activities(for: SharedItems(url: "https://example.org"))
        #expect(offered.map(\.id) == [high, low])
    }

    @Test func aProviderStartedBeforeTheBrokerRegistersWhenItAppears() async throws {
        let bus = try await TestBus.start()
        let id = uniqueID("early")
        let provider = ActivityProvider(connection: try bus.connect())
        do {
            try await provider.start([ProvidedActivity(id: id, name: "Early") { _ in .completed }])
            Issue.record("registered without a broker")
        } catch {
            guard case .unreachable = error else {
                Issue.record("expected .unreachable, got \(error)")
                return
            }
        }
        let broker = try await BrokerHarness(bus: bus)
        defer { broker.stopInBackground() }
        let client = BrokerProxy(connection: try bus.connect(), address: bus.address)
        try await waitUntil("\(id) registered once the broker runs", interval: .milliseconds(20)) {
            (try? await client.registered())?.contains { $0.id == id } ?? false
        }
    }

    @Test func localizedNamesAndMatchRulesReachTheBroker() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("video")
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(
                id: id, name: "Save Video", names: ["de": "Video speichern"], icon: "video-x-generic",
                category: "action", schemes: ["https"], hosts: ["*.youtube.com"], pathPrefixes: ["/watch"]
            ) { _ in .completed }
        ])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let video = SharedItems(url: "https://www.youtube.com/watch?v=x")
        let offered = try await client.activities(for: video, locale: "de_DE")
        #expect(offered.map(\.name) == ["Video speichern"])
        #expect(offered.first?.icon == "video-x-generic")
        #expect(offered.first?.category == "action")
        #expect(try await client.activities(for: SharedItems(url: "https://example.org/watch")).isEmpty)
        #expect(try await client.activities(for: SharedItems(url: "https://www.youtube.com/feed")).isEmpty)
        #expect(
            try await client.activities(for: SharedItems(url: "http://www.youtube.com/watch?v=x")).isEmpty)
        let (applies, reason) = try await client.explain(
            id, items: SharedItems(url: "https://example.org/watch"))
        #expect(!applies)
        #expect(reason.contains("example.org"), "\(reason)")
    }

    @Test func aThrowingHandlerFailsTheJob() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the disk is on fire" } }
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("broken")
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([ProvidedActivity(id: id, name: "Broken") { _ in throw Broken() }])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)

        let outcome = try await client.perform(id, items: SharedItems(url: "https://example.org"))
        #expect(outcome.state == .failed)
        #expect(outcome.results["error"] == .string("org.activitybroker.Error.ProviderFailed"))
        #expect(outcome.message?.contains("the disk is on fire") == true)
    }

    @Test func aFailedOutcomeIsPassedOn() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("declines")
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: id, name: "Declines") { _ in
                .failed(error: "org.example.Error.Quota", message: "quota exceeded")
            }
        ])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let outcome = try await client.perform(id, items: SharedItems(url: "https://example.org"))
        #expect(outcome == .failed(error: "org.example.Error.Quota", message: "quota exceeded"))
    }

    @Test func cancellingThePerformTaskCancelsTheJob() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let endless = try await Self.endlessActivity("forever", named: "Forever", on: broker)
        let (id, started) = (endless.id, endless.started)
        let connection = try broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: broker.bus.address)
        let (perform, jobs) = Self.performInTask(id, with: client)
        let job = try await jobs.next("the job path")
        try await started.next("the handler to start")
        perform.cancel()
        let outcome = try await perform.value
        #expect(outcome.state == .cancelled)

        #expect(try await Self.state(of: job, on: connection) == "cancelled")
    }

    /// A cancel that comes while the `Perform` call is still unanswered goes out as soon as the
    /// reply names the job (`JobCancellation`), from the turn that reads the reply. The broker is
    /// stopped so that the call is surely in flight; a bus monitor shows the call arriving and
    /// the `Cancel` leaving.
    @Test func cancellingWhilePerformIsUnansweredCancelsTheJob() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let endless = try await Self.endlessActivity("unanswered", named: "Unanswered", on: broker)
        let id = endless.id
        let monitor = try ChildProcess(
            executable: "dbus-monitor",
            arguments: [
                "--address", broker.bus.address,
                "type='method_call',interface='org.activitybroker.Broker1',member='Perform'",
                "type='method_call',interface='org.activitybroker.Job1',member='Cancel'",
            ])
        defer { monitor.kill() }
        // Becoming a monitor costs the monitor its unique name: from then on it sees every call.
        _ = try await monitor.nextLine { $0.contains("NameLost") }
        let connection = try broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: broker.bus.address)

        Glibc.kill(broker.pid, SIGSTOP)
        defer { Glibc.kill(broker.pid, SIGCONT) }
        try await waitUntil("the broker to stop") { processState(broker.pid) == "T" }
        let (perform, jobs) = Self.performInTask(id, with: client)
        _ = try await monitor.nextLine { $0.contains("member=Perform") }
        perform.cancel()
        // A round trip on the client's connection: its loop has taken the cancel before this.
        _ = try await connection.call(MethodCall(destination: "org.freedesktop.DBus", path: "/", interface: .peer, member: "Ping"))
        Glibc.kill(broker.pid, SIGCONT)

        #expect(try await perform.value == .cancelled)
        let job = try await jobs.next("the job path")
        _ = try await monitor.nextLine { $0.contains("member=Cancel") && $0.contains("path=\(job.rawValue)") }
        #expect(try await Self.state(of: job, on: connection) == "cancelled")
    }

    /// Regression: a task cancelled around the Perform call got a stray `Cancelled` D-Bus error
    /// (and a job started in flight was never cancelled) instead of the `cancelled` outcome.
    @Test func aTaskCancelledBeforePerformStartsNothing() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("never")
        let calls = Inbox<Void>()
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: id, name: "Never") { _ in
                calls.put(()); return .completed
            }
        ])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let perform = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.perform(id, items: SharedItems(url: "https://example.org"))
        }
        #expect(try await perform.value == .cancelled)
        // A later perform on the same proxy runs normally, and is the provider's first call.
        #expect(try await client.perform(id, items: SharedItems(url: "https://example.org")) == .completed)
        #expect(calls.count == 1)
        #expect(!broker.log.contains("job 2"), "one job only: \(broker.log)")
    }

    @Test func activitiesChangedYieldsOnRegistration() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let changes = Inbox<Void>()
        let stream = client.activitiesChanged()
        let listener = Task {
            for await _ in stream { changes.put(()) }
        }
        defer { listener.cancel() }
        // A round trip on the same connection: the AddMatch went out before it.
        _ = try await client.version()
        #expect(changes.count == 0)

        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([
            ProvidedActivity(id: uniqueID("changes"), name: "Changes") { _ in .completed }
        ])
        try await changes.next("ActivitiesChanged after a registration")
    }

    @Test func theProviderRegistersAgainWhenTheBrokerRestarts() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("survivor")
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([ProvidedActivity(id: id, name: "Survivor") { _ in .completed }])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        #expect(try await client.registered().contains { $0.id == id })

        // Timestamps taken on the connections' loops, not in (possibly starved) test tasks.
        let rounds = Inbox<ContinuousClock.Instant>()
        provider.onRegistration = { errors in if errors.isEmpty { rounds.put(.now) } }
        let owners = Locked<[(owner: String, at: ContinuousClock.Instant)]>([])
        let watcher = try broker.bus.connect()
        _ = watcher.watchNameOwner(BrokerProxy.busName) { owner in
            if let owner { owners.withLock { $0.append((owner, .now)) } }
        }
        try await waitUntil("the first broker's name owner") { owners.value.count == 1 }

        broker.kill()
        try await broker.restart()
        let round = try await rounds.next("a registration round with the new broker")
        try await waitUntil("the new broker's name owner") { owners.value.count == 2 }
        let took = round - owners.value[1].at
        #expect(took < .seconds(1), "registered again \(took) after the new broker took its name")
        try await waitUntil("\(id) listed by the new broker", interval: .milliseconds(20)) {
            (try? await client.registered())?.contains { $0.id == id } ?? false
        }
        let outcome = try await client.perform(id, items: SharedItems(url: "https://example.org"))
        #expect(outcome.state == .completed)
    }

    /// Regression: `perform` waited forever for `Finished` when the broker died mid-job.
    @Test func performFailsWhenTheBrokerDiesMidJob() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let endless = try await Self.endlessActivity("orphaned", named: "Orphaned", on: broker)
        let (id, started) = (endless.id, endless.started)
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let perform = Task { try await client.perform(id, items: SharedItems(url: "https://example.org")) }
        try await started.next("the handler to start")
        broker.kill()
        let ended = Inbox<ActivityOutcome>()
        let waiter = Task { if let outcome = try? await perform.value { ended.put(outcome) } }
        defer { waiter.cancel() }
        let outcome = try await ended.next("perform to return after the broker died")
        #expect(outcome.state == .failed)
        #expect(outcome.message?.contains("broker") == true)
    }

    /// Regression: closing the app's connection while `perform` waited for `Finished` left it
    /// waiting forever (the match went with the connection, and nothing told the waiter).
    @Test func closingTheConnectionEndsAWaitingPerform() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let endless = try await Self.endlessActivity("abandoned", named: "Abandoned", on: broker)
        let (id, started) = (endless.id, endless.started)
        let connection = try broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: broker.bus.address)
        let (perform, jobs) = Self.performInTask(id, with: client)
        try await started.next("the handler to start")
        // The reply read: perform now waits for `Finished` (closed before, the call itself fails).
        _ = try await jobs.next("the job path")
        connection.close()
        let ended = Inbox<ActivityOutcome>()
        let waiter = Task { if let outcome = try? await perform.value { ended.put(outcome) } }
        defer { waiter.cancel() }
        let outcome = try await ended.next("perform to return after its connection closed")
        #expect(outcome.state == .failed)
        #expect(outcome.results["error"] == .string(DBusError.disconnectedName))
    }

    /// Regression: a broker that took the name over while the first registration round was
    /// in flight was skipped by the owner watch (the round had not ended yet) and never got the
    /// activities. The first broker is stopped so that the round is surely in flight when the
    /// second one (`--replace`) takes the name.
    @Test func aBrokerReplacedDuringTheFirstRoundGetsTheActivities() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("replaced")
        let monitor = try ChildProcess(
            executable: "dbus-monitor",
            arguments: [
                "--address", broker.bus.address,
                "type='method_call',interface='org.activitybroker.Broker1',member='RegisterActivity'",
            ])
        defer { monitor.kill() }
        _ = try await monitor.nextLine { $0.contains("NameLost") }
        let first = broker.pid
        Glibc.kill(first, SIGSTOP)
        defer { Glibc.kill(first, SIGCONT) }
        try await waitUntil("the broker to stop") { processState(first) == "T" }

        let providerConnection = try broker.bus.connect()
        let provider = ActivityProvider(connection: providerConnection)
        let starting = Task {
            try await provider.start([ProvidedActivity(id: id, name: "Replaced") { _ in .completed }])
        }
        _ = try await monitor.nextLine { $0.contains("member=RegisterActivity") }
        try await broker.start(arguments: ["--replace"])
        // A round trip to the bus on the provider's connection: it has seen the new owner.
        _ = try await providerConnection.call(
            MethodCall(destination: "org.freedesktop.DBus", path: "/", interface: .peer, member: "Ping"))
        Glibc.kill(first, SIGCONT)

        try await starting.value
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        #expect(try await client.registered().contains { $0.id == id }, "the new broker lacks \(id)")
    }

    /// Regression: a provider released without `close()` kept its object exported with an
    /// `unowned` handler, so the next `Perform` on its path trapped the app's process.
    @Test func performOnAProviderReleasedWithoutCloseIsAnErrorNotACrash() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let id = uniqueID("released")
        let providerConnection = try bus.connect()
        do {
            let provider = ActivityProvider(connection: providerConnection)
            try await provider.start(
                [ProvidedActivity(id: id, name: "Released") { _ in .completed }], register: false)
        }
        let stranger = try bus.connect()
        let app = try BusName(providerConnection.uniqueName)
        let direct = MethodCall(
            destination: app, path: "/org/activitybroker/Provider", interface: ActivityProvider.interface,
            member: "Perform",
            body: [.string(id), .vardict(["url": .string("https://example.org/")]), .vardict([:])])
        do {
            _ = try await stranger.call(direct, autoStart: false)
            Issue.record("Perform on a released provider was answered")
        } catch {
            #expect(error.name == DBusError.unknownObjectName, "\(error)")
        }
        // Still alive and answering.
        _ = try await stranger.call(
            MethodCall(destination: app, path: "/", interface: .peer, member: "Ping"), autoStart: false)
    }

    /// A provider released without `close()` does not leave the broker offering its activities.
    @Test func aProviderReleasedWithoutCloseUnregistersItsActivities() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("dropped")
        let providerConnection = try broker.bus.connect()
        do {
            let provider = ActivityProvider(connection: providerConnection)
            try await provider.start([ProvidedActivity(id: id, name: "Dropped") { _ in .completed }])
        }
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        try await waitUntil("\(id) unregistered", interval: .milliseconds(20)) {
            (try? await client.registered())?.contains { $0.id == id } == false
        }
    }

    /// Regression: the `activitiesChanged()` stream never finished when its connection ended.
    @Test func theChangesStreamFinishesWhenTheConnectionCloses() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let connection = try broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: broker.bus.address)
        let stream = client.activitiesChanged()
        let ended = Inbox<Void>()
        let listener = Task {
            for await _ in stream {}
            ended.put(())
        }
        defer { listener.cancel() }
        _ = try await client.version()
        connection.close()
        try await ended.next("the stream to finish after its connection closed")
    }

    /// Another peer's broadcast of `ActivitiesChanged` is not the broker's.
    @Test func theChangesStreamIgnoresAnotherPeersSignal() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let connection = try broker.bus.connect()
        let client = BrokerProxy(connection: connection, address: broker.bus.address)
        let changes = Inbox<Void>()
        let stream = client.activitiesChanged()
        let listener = Task {
            for await _ in stream { changes.put(()) }
        }
        defer { listener.cancel() }
        _ = try await client.version()
        let stranger = try broker.bus.connect()
        try stranger.emit(
            Signal(
                path: "/org/activitybroker/Broker1", interface: "org.activitybroker.Broker1",
                member: "ActivitiesChanged"))
        let app = try BusName(connection.uniqueName)
        _ = try await stranger.call(
            MethodCall(destination: app, path: "/", interface: .peer, member: "Ping"), autoStart: false)
        _ = try await client.version()
        #expect(changes.count == 0)
    }

    @Test func closingTheProviderUnregistersItsActivities() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("closing")
        let provider = ActivityProvider(connection: try broker.bus.connect())
        try await provider.start([ProvidedActivity(id: id, name: "Closing") { _ in .completed }])
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        #expect(try await client.registered().contains { $0.id == id })
        await provider.close()
        #expect(try await !client.registered().contains { $0.id == id })
        await #expect(throws: BrokerError.self) {
            try await client.perform(id, items: SharedItems(url: "https://example.org"))
        }
    }
}

/// Issue 11/13: a provider built with the client library performs only for the broker.
@Suite(.timeLimit(.minutes(2))) struct ProviderCallerTests {
    @Test func performFromAnotherProgramIsAccessDeniedAndTheHandlerNeverRuns() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let id = uniqueID("guarded")
        let ran = Inbox<String>()
        let providerConnection = try broker.bus.connect()
        let provider = ActivityProvider(connection: providerConnection)
        try await provider.start([
            ProvidedActivity(id: id, name: "Guarded") { request in
                ran.put(request.items.url)
                return .completed
            }
        ])
        // Any other program on the bus calls Perform directly: refused, handler not run.
        let stranger = try broker.bus.connect()
        let direct = MethodCall(
            destination: try BusName(providerConnection.uniqueName), path: provider.objectPath,
            interface: ActivityProvider.interface, member: "Perform",
            body: [.string(id), .vardict(["url": .string("https://stranger.example/")]), .vardict([:])])
        do {
            _ = try await stranger.call(direct, autoStart: false)
            Issue.record("Perform from a stranger was answered")
        } catch {
            #expect(error.name == "org.activitybroker.Error.AccessDenied", "\(error)")
        }
        // The broker's call still goes through, and is the only one the handler saw.
        let client = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let outcome = try await client.perform(id, items: SharedItems(url: "https://broker.example/"))
        #expect(outcome.state == .completed)
        #expect(try await ran.next("the broker's perform") == "https://broker.example/")
        #expect(ran.items == ["https://broker.example/"], "the stranger's call must not have run the handler")
    }
}
