// The one way tests and the bench run the real activity-broker: its tree, its environment, start, stop.
import DBus
import Foundation
import Glibc

/// The built `activity-broker` on a private bus, in a fresh `BrokerLayout` of its own.
///
/// `start()` spawns the broker and returns once the bus says this process owns
/// `org.activitybroker.Broker1` (`BrokerNameWatch`). Several brokers may be started one
/// after the other (a restart, `--replace`); `broker` is the newest. `stop()` ends every
/// broker with SIGTERM (so their children go too; SIGKILL after 5 s), stops the bus and
/// removes the tree; it blocks meanwhile, so async tests use `stopOffPool()`, or
/// `stopInBackground()` in a `defer` (released without a stop, the harness stops in the
/// background too). Should the test process die first, the bus's guard stops the bus and a
/// broker exits when its bus goes.
///
/// At most `BrokerSlots.shared` harnesses live at once (inotify instances are scarce); `init`
/// waits for a slot.
public final class BrokerHarness: Sendable, BlockingStop {
    public let bus: TestBus
    public let layout: BrokerLayout
    /// Variables added to (or replacing) the layout's environment; set before starting a broker.
    public let extraEnvironment = Locked<[String: String]>([:])
    /// Every broker started, newest last.
    public let brokers = Locked<[ChildProcess]>([])
    private let names: BrokerNameWatch
    private let extensionDirectories: [String]
    private let opener: String
    private let arguments: [String]
    private let startTime = Locked<Duration>(.zero)
    private let stopped = Locked(false)

    /// Creates the tree, writes `manifests` (file name → JSON; `@ROOT@` becomes `root`) into
    /// the built-in extensions directory, starts a bus unless one is given and, when `start`,
    /// a broker.
    ///
    /// - `serviceDirectory`: the new bus activates from `layout.services`.
    /// - `extensionDirectories`: the broker's `--extensions-dir`s (default: `layout.extensionsDirectory`).
    /// - `opener`: its `--opener`, given the layout (default: a script appending its arguments
    ///   to `openedFile`).
    /// - `arguments`: further arguments for every broker (e.g. `--verbose`).
    public init(
        bus: TestBus? = nil, serviceDirectory: Bool = false, manifests: [String: String] = [:],
        extensionDirectories: [String]? = nil, opener: ((BrokerLayout) -> String)? = nil, arguments: [String] = [],
        start: Bool = true
    ) async throws {
        await BrokerSlots.shared.acquire()
        let layout: BrokerLayout
        do {
            layout = BrokerLayout(root: try TemporaryDirectory(prefix: "broker-test").path)
        } catch {
            BrokerSlots.shared.release()
            throw error
        }
        do {
            try layout.create()
            if let bus {
                self.bus = bus
            } else {
                self.bus = try await TestBus.start(serviceDirectory: serviceDirectory ? layout.services : nil)
            }
            names = try BrokerNameWatch(bus: self.bus)
        } catch {
            // Not fully initialized: deinit will not run.
            try? FileManager.default.removeItem(atPath: layout.root)
            BrokerSlots.shared.release()
            throw error
        }
        self.layout = layout
        self.extensionDirectories = extensionDirectories ?? [layout.extensionsDirectory]
        self.opener = opener?(layout) ?? "/bin/sh \(layout.root)/opener"
        self.arguments = arguments
        // From here a throw runs deinit, which stops everything and gives the slot back.
        for (name, json) in manifests {
            try json.replacingOccurrences(of: "@ROOT@", with: layout.root)
                .write(toFile: layout.extensionsDirectory + "/" + name, atomically: true, encoding: .utf8)
        }
        // Run by /bin/sh, never executed itself: a script the test just wrote can be "busy"
        // (ETXTBSY) while a child spawned meanwhile on another thread still holds the write fd.
        try "printf '%s\\n' \"$@\" >> '\(openedFile)'\n".write(
            toFile: layout.root + "/opener", atomically: true, encoding: .utf8)
        if start { try await self.start() }
    }

    deinit {
        guard markStopped() else { return }
        let (brokers, bus, root) = (brokers, bus, root)
        BackgroundCleanup.run { Self.shutDown(brokers: brokers, bus: bus, root: root) }
    }

    /// The tree's root.
    public var root: String { layout.root }

    /// The file the default opener appends its arguments to, one a line.
    public var openedFile: String { root + "/opened" }

    /// The default opener's recorded arguments.
    public var opened: [String] {
        ((try? String(contentsOfFile: openedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The environment of the broker, and for its clients: the layout's and `extraEnvironment`.
    public var environment: [String: String] {
        layout.environment(busAddress: bus.address).merging(extraEnvironment.value) { _, extra in extra }
    }

    /// The command line of a broker (after the executable), with `extra` at the end.
    public func brokerArguments(_ extra: [String] = []) -> [String] {
        ["--bus", bus.address] + extensionDirectories.flatMap { ["--extensions-dir", $0] } + ["--opener", opener]
            + arguments + extra
    }

    /// The newest broker.
    public var broker: ChildProcess { brokers.value.last! }

    /// The newest broker's pid (0 before the first start).
    public var pid: pid_t { brokers.value.last?.pid ?? 0 }

    /// Everything every broker logged so far.
    public var log: String { brokers.value.map(\.standardError).joined() }

    /// From the spawn of the last broker `start` started to the arrival of the `NameOwnerChanged`
    /// that showed it owning the name.
    public var lastStartTime: Duration { startTime.value }

    // MARK: Starting and stopping

    /// Starts a broker and returns once the bus says it owns its name.
    ///
    /// `wrapper`: a command to run the broker under (e.g. valgrind), its arguments first.
    /// - Throws: `TimeoutError` (with the broker's log) when it does not own the name by
    ///   `deadline` or exits first.
    @discardableResult
    public func start(arguments extra: [String] = [], wrapper: [String] = [], deadline: Deadline = .seconds(30))
        async throws -> ChildProcess
    {
        let spawned = ContinuousClock.now
        let broker = try launch(arguments: extra, wrapper: wrapper)
        let owned = try await names.waitForOwner(
            pid: broker.pid, deadline: deadline, isRunning: { broker.termination == nil },
            diagnostics: { "its log: \(broker.standardError.suffix(4000))" })
        startTime.value = owned - spawned
        return broker
    }

    /// Starts a broker without waiting for anything (for brokers expected to fail).
    @discardableResult
    public func launch(arguments extra: [String] = [], wrapper: [String] = []) throws -> ChildProcess {
        let executable = try BuiltProducts.executable("activity-broker")
        let command = wrapper.isEmpty ? [executable] : wrapper + [executable]
        let broker = try ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()) + brokerArguments(extra),
            environment: environment)
        brokers.withLock { $0.append(broker) }
        return broker
    }

    /// SIGTERM to the newest broker; its exit status.
    @discardableResult
    public func stopBroker(deadline: Deadline = .standard) async throws -> ChildProcess.Termination {
        broker.terminate()
        return try await broker.exit(deadline: deadline)
    }

    /// SIGKILL to the newest broker.
    public func kill() {
        brokers.value.last?.kill()
    }

    /// Starts a new broker once the newest one is gone from the bus (SIGKILLed if need be).
    public func restart() async throws {
        kill()
        try await waitForBrokerName(present: false)
        try await start()
    }

    /// Waits until `org.activitybroker.Broker1` has (or has no) owner on the bus.
    public func waitForBrokerName(present: Bool, deadline: Deadline = .standard) async throws {
        try await names.waitUntil(owned: present, deadline: deadline)
    }

    /// Ends every broker still running: SIGTERM, and SIGKILL after 5 s. Blocks meanwhile.
    public func stopBrokers() {
        Self.stopBrokers(brokers.value)
    }

    /// Stops every broker, then the bus, and removes the tree. Idempotent; blocks for a moment.
    public func stop() {
        guard markStopped() else { return }
        Self.shutDown(brokers: brokers, bus: bus, root: root)
    }

    /// Whether this call is the first to stop the harness.
    private func markStopped() -> Bool {
        stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
    }

    private static func stopBrokers(_ brokers: [ChildProcess]) {
        for broker in brokers where broker.termination == nil {
            broker.terminate()
            if (try? broker.waitForExit(deadline: .seconds(5))) == nil { broker.kill() }
        }
    }

    private static func shutDown(brokers: Locked<[ChildProcess]>, bus: TestBus, root: String) {
        stopBrokers(brokers.value)
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
        BrokerSlots.shared.release()
    }
}
