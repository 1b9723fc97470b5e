// Runs a job's activity: a child process (exec, open) or a Provider1 call (dbus).
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc
import SystemSupport

/// What a job will do, decided before the job exists so that a bad template or URL is an
/// error reply to `Perform` rather than a failed job.
enum DispatchPlan: Sendable {
    /// Run a program without a shell; `stdin` is written to it, or it reads /dev/null.
    case spawn(
        program: String, arguments: [String], stdin: String?, environment: [String: String],
        workingDirectory: String? = nil, child: LaunchedChild)
    /// Call `Provider1.Perform` on `destination` at `path`.
    case provider(destination: BusName, path: ObjectPath, autoStart: Bool, body: [Value])
    /// Call `org.freedesktop.Application.Open(as, a{sv})` on an installed application
    /// (`DBusActivatable=true`), starting it by D-Bus activation when needed.
    case applicationOpen(destination: BusName, path: ObjectPath, body: [Value])
}

/// What a spawned child is for: the activity (its scope's name) and how its failure reads.
struct LaunchedChild: Sendable {
    enum Role: Sendable {
        /// A manifest's or registration's `exec`: the tail of its stderr goes into a failure's message.
        case exec
        /// An installed application's Exec line (a terminal emulator's too): launched detached,
        /// the job completes once it started (as GIO's launch does); its stderr stays on
        /// /dev/null, and the job's timeout, `Cancel` and the broker's shutdown leave it running.
        case application
        /// The URL opener (`open` activities): its failure is worded by `OpenerFailure`. Ending
        /// its job ends the opener alone, not the browser it may run in the foreground.
        case opener
    }

    var activity: ActivityID
    var role: Role
}

/// Starts dispatch plans on the broker's loop and reports each one's outcome once, never
/// before `start` returns (so nothing of a job is reported inside the turn that starts it).
final class Dispatcher: @unchecked Sendable {
    /// Seconds a job's child has between SIGTERM and SIGKILL when the job is cancelled, times
    /// out or the broker exits.
    static let childGrace: Double = 2

    private let connection: Connection
    private let opener: [String]
    private let launcher: ChildProcessLauncher
    private let scopes: ScopeRequester

    init(connection: Connection, opener: [String], environment: [String: String], log: BrokerLog) {
        self.connection = connection
        self.opener = opener
        self.scopes = ScopeRequester(connection: connection, log: log)
        // Children that open something themselves (activity-qr) use the same opener.
        var childEnvironment = environment.filter { !Self.notInherited.contains($0.key) }
        childEnvironment["ACTIVITY_BROKER_OPENER"] = opener.joined(separator: " ")
        self.launcher = ChildProcessLauncher(queue: connection.queue, environment: childEnvironment)
    }

    /// The broker's variables no child inherits (the one denylist; every child the broker
    /// starts comes from this launcher). They describe how the broker itself was started, and
    /// a child that read them would act on the broker's behalf:
    /// - one launch's: an activation token the broker was started with is stale (single use);
    ///   a job's own token comes from Perform's `activation_token`;
    /// - D-Bus activation's: `DBUS_STARTER_*` name the bus that started the broker, not the child;
    /// - systemd's: `NOTIFY_SOCKET` and `WATCHDOG_*` would let a child report readiness or
    ///   liveness for the broker's unit, `LISTEN_*` hand it sockets that are not its own, and
    ///   `INVOCATION_ID` and `JOURNAL_STREAM` tag the broker's run and log stream.
    static let notInherited: Set<String> = [
        "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID",
        "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE",
        "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "INVOCATION_ID", "JOURNAL_STREAM",
        "WATCHDOG_USEC", "WATCHDOG_PID",
    ]

    /// Expands the resolved perform spec for these items.
    func plan(_ perform: PerformSpec, activity: Activity, items: Items, activationToken: String?) throws(ActivityError)
        -> DispatchPlan
    {
        var environment: [String: String] = [:]
        if let activationToken { environment["XDG_ACTIVATION_TOKEN"] = activationToken }
        switch perform {
        case .exec(let spec):
            let argv = spec.arguments(for: items)
            return .spawn(
                program: argv[0], arguments: Array(argv.dropFirst()), stdin: spec.input(for: items),
                environment: environment, workingDirectory: spec.workingDirectory,
                child: LaunchedChild(activity: activity.id, role: activity.origin == .desktop ? .application : .exec))
        case .open(let spec):
            let url = try spec.url(for: items)
            return .spawn(
                program: opener[0], arguments: Array(opener.dropFirst()) + [url], stdin: nil,
                environment: environment, child: LaunchedChild(activity: activity.id, role: .opener))
        case .dbus(let busName, let objectPath):
            return try providerPlan(
                destination: busName, path: objectPath, autoStart: true, activity: activity, items: items,
                activationToken: activationToken)
        case .provider(let owner, let objectPath):
            return try providerPlan(
                destination: owner, path: objectPath, autoStart: false, activity: activity, items: items,
                activationToken: activationToken)
        case .application(let busName, let objectPath):
            return try applicationPlan(
                destination: busName, path: objectPath, activity: activity, items: items,
                activationToken: activationToken)
        case .candidates:
            preconditionFailure("availability resolves candidates before dispatch")
        }
    }

    /// Starts the plan; `completion` runs once on the loop, in a later turn than this call, unless
    /// the dispatch is cancelled.
    ///
    /// `deadline` (uptime nanoseconds) is the job's: its owner cancels the dispatch then, so D-Bus
    /// calls arm no timer of their own; it tells a `NoReply` that came late (a timeout) from
    /// one that came at once (the callee left the bus).
    func start(_ plan: DispatchPlan, deadline: UInt64, completion: @escaping @Sendable (JobOutcome) -> Void)
        -> any RunningDispatch
    {
        switch plan {
        case .spawn(let program, let arguments, let stdin, let environment, let workingDirectory, let child):
            return spawn(
                program: program, arguments: arguments, stdin: stdin, environment: environment,
                workingDirectory: workingDirectory, child: child, completion: completion)
        case .provider(let destination, let path, let autoStart, let body):
            return callProvider(
                destination: destination, path: path, autoStart: autoStart, body: body, deadline: deadline,
                completion: completion)
        case .applicationOpen(let destination, let path, let body):
            return callApplication(
                destination: destination, path: path, body: body, deadline: deadline, completion: completion)
        }
    }

    // MARK: - Processes

    private func spawn(
        program: String, arguments: [String], stdin: String?, environment: [String: String],
        workingDirectory: String?, child: LaunchedChild, completion: @escaping @Sendable (JobOutcome) -> Void
    ) -> any RunningDispatch {
        var options = SpawnOptions(standardInput: stdin, environment: environment, workingDirectory: workingDirectory)
        if child.role == .opener {
            // xdg-open's generic path runs the browser in the foreground, as its child in its
            // group: ending the job (timeout, Cancel, shutdown) ends the opener, never what it
            // opened, which is the user's like a detached application.
            options.terminationTarget = .process
        }
        if child.role == .application {
            return launchApplication(
                program: program, arguments: arguments, options: options, child: child, completion: completion)
        }
        if child.role == .exec {
            // Only the tail: a child that writes without end costs the broker no more than this.
            options.captureStandardError = true
            options.captureLimit = ChildFailureMessage.capturedBytes
            options.captureWindow = .tail
            // A program the child started may hold the pipe for hours: the job ends with the child.
            options.reportAtExit = true
        }
        do {
            let process = try launcher.spawn([program] + arguments, options: options) { termination in
                guard !termination.exit.succeeded else { return completion(.completed) }
                let message =
                    child.role == .opener
                    ? OpenerFailure.message(program: program, exit: termination.exit)
                    : ChildFailureMessage.message(
                        program: program, exit: termination.exit, standardError: termination.standardError)
                completion(.failed(.providerFailed(message)))
            }
            scopes.moveToScope(pid: process.pid, activity: child.activity)
            return ProcessDispatch(process: process)
        } catch {
            let message =
                child.role == .opener
                ? OpenerFailure.message(program: program, couldNotStart: error)
                : ChildFailureMessage.message(program: program, couldNotStart: error)
            connection.queue.async { completion(.failed(.providerFailed(message))) }
            return FinishedDispatch()
        }
    }

    /// Starts an installed application detached and completes the job at once: the user
    /// opened a browser, not a helper to wait for, so nothing of the job may end it later.
    private func launchApplication(
        program: String, arguments: [String], options: SpawnOptions, child: LaunchedChild,
        completion: @escaping @Sendable (JobOutcome) -> Void
    ) -> any RunningDispatch {
        let outcome: JobOutcome
        do {
            let pid = try launcher.spawnDetached([program] + arguments, options: options)
            scopes.moveToScope(pid: pid, activity: child.activity)
            outcome = .completed
        } catch {
            outcome = .failed(.providerFailed(ChildFailureMessage.message(program: program, couldNotStart: error)))
        }
        connection.queue.async { completion(outcome) }
        return FinishedDispatch()
    }

    // MARK: - Providers

    private func providerPlan(
        destination: String, path: String, autoStart: Bool, activity: Activity, items: Items,
        activationToken: String?
    ) throws(ActivityError) -> DispatchPlan {
        let (busName, objectPath) = try Self.busTarget(destination, path, of: activity, naming: "provider")
        let itemValues = ItemKey.record(url: items.url.string, title: items.title, text: items.text)
        var options: [String: Value] = [:]
        if let activationToken { options[OptionKey.activationToken] = .string(activationToken) }
        return .provider(
            destination: busName, path: objectPath, autoStart: autoStart,
            body: [.string(activity.id.rawValue), .vardict(itemValues), .vardict(options)])
    }

    private func callProvider(
        destination: BusName, path: ObjectPath, autoStart: Bool, body: [Value], deadline: UInt64,
        completion: @escaping @Sendable (JobOutcome) -> Void
    ) -> any RunningDispatch {
        let call = Provider1.perform.call(destination, path: path, body: body)
        // The job table ends the job at its deadline and cancels the call. A provider that
        // leaves the bus mid-call needs no watch of ours: the bus answers the call at once with
        // NoReply ("recipient disconnected"), which `outcome` reads as a failure.
        let pending = connection.call(call, timeout: nil, autoStart: autoStart) { result in
            let timedOut = DispatchTime.now().uptimeNanoseconds >= deadline
            completion(Self.outcome(of: result, provider: destination.rawValue, timedOut: timedOut))
        }
        return ProviderDispatch(pending: pending)
    }

    /// The validated bus name and object path an activity's manifest or desktop entry names;
    /// `unavailable` naming the `role` ("provider", "application") when either is invalid.
    private static func busTarget(
        _ destination: String, _ path: String, of activity: Activity, naming role: String
    ) throws(ActivityError) -> (BusName, ObjectPath) {
        do {
            return (try BusName(destination), try ObjectPath(path))
        } catch {
            throw .unavailable("\(activity.id) names an invalid \(role): \(error.message)")
        }
    }

    // MARK: - Installed applications over D-Bus

    static let applicationInterface: InterfaceName = "org.freedesktop.Application"

    /// `Open([url], platform_data)`: the Desktop Entry Specification's D-Bus activation. The
    /// activation token goes in as both `activation-token` (Wayland) and `desktop-startup-id` (X11).
    private func applicationPlan(
        destination: String, path: String, activity: Activity, items: Items, activationToken: String?
    ) throws(ActivityError) -> DispatchPlan {
        let (busName, objectPath) = try Self.busTarget(destination, path, of: activity, naming: "application")
        var platformData: [String: Value] = [:]
        if let activationToken {
            platformData["activation-token"] = .string(activationToken)
            platformData["desktop-startup-id"] = .string(activationToken)
        }
        return .applicationOpen(
            destination: busName, path: objectPath,
            body: [.array(element: "s", [.string(items.url.string)]), .vardict(platformData)])
    }

    /// Calls `Open` through the same pending-call path as providers; an empty reply completes the job.
    private func callApplication(
        destination: BusName, path: ObjectPath, body: [Value], deadline: UInt64,
        completion: @escaping @Sendable (JobOutcome) -> Void
    ) -> any RunningDispatch {
        let call = MethodCall(
            destination: destination, path: path, interface: Self.applicationInterface, member: "Open", body: body)
        let pending = connection.call(call, timeout: nil, autoStart: true) { result in
            switch result {
            case .success:
                completion(.completed)
            case .failure(let error):
                let timedOut = DispatchTime.now().uptimeNanoseconds >= deadline && error.name == DBusError.noReplyName
                completion(Self.outcome(of: .failure(error), provider: destination.rawValue, timedOut: timedOut))
            }
        }
        return ProviderDispatch(pending: pending)
    }

    /// Maps a provider's reply `(s state, a{sv} results)` or error to the job's outcome.
    ///
    /// `NoReply` is a timeout only when the job's time is up (`timedOut`): the bus also sends
    /// it at once when the provider leaves the bus without replying, and that is a failure of
    /// the provider, not a timeout.
    static func outcome(of result: Result<[Value], DBusError>, provider: String, timedOut: Bool) -> JobOutcome {
        switch result {
        case .success(let values):
            guard values.count == 2, let stateName = values[0].string, let results = values[1].vardict,
                  let state = JobState(rawValue: stateName), state.isFinal
            else {
                return .failed(.providerFailed("the provider \(provider) replied with something other than (s state, a{sv} results) with a final state"))
            }
            return JobOutcome(state: state, results: results)
        case .failure(let error) where error.name == DBusError.noReplyName && timedOut:
            return .failed(.timeout("the provider \(provider) did not reply in time"))
        case .failure(let error):
            return .failed(.providerFailed("the provider \(provider) failed: \(error.name): \(error.message)"))
        }
    }
}

/// A spawned child: cancelling terminates its process group (SIGTERM, then SIGKILL), or the
/// opener alone for `open`.
private final class ProcessDispatch: RunningDispatch {
    let process: SpawnedProcess
    init(process: SpawnedProcess) { self.process = process }
    func cancel() { process.terminate(grace: Dispatcher.childGrace) }
}

/// A pending provider call: cancelling drops the reply.
private final class ProviderDispatch: RunningDispatch {
    let pending: PendingCall
    init(pending: PendingCall) { self.pending = pending }
    func cancel() { pending.cancel() }
}

/// A dispatch that already ended (failed to start, or launched detached); nothing to cancel.
private final class FinishedDispatch: RunningDispatch {
    func cancel() {}
}
