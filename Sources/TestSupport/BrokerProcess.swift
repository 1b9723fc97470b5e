// A real activity-broker process on a private test bus, with its own XDG dirs and a recording opener.
import DBus
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `activity-broker` running on `bus`, in a fresh temporary directory that holds its
/// built-in manifests (`extensions/`), XDG data and state homes and a recording URL opener.
///
/// The broker runs under a `/bin/sh` guard whose stdin is a pipe from this process: when the
/// test process dies, the pipe closes and the guard SIGKILLs the broker (a test killed mid-way
/// leaves no broker behind, even before its bus is gone). `stop()` (also on deinit) does the same, stops the bus and
/// removes the directory. Kill and `restart()` it to test what clients do when the broker goes.
public final class BrokerProcess: @unchecked Sendable {
    public let bus: TestBus
    /// The temporary directory.
    public let root: String
    /// Built-in manifests (`--extensions-dir`).
    public var extensionsDirectory: String { root + "/extensions" }
    /// `$XDG_DATA_HOME`.
    public var dataHome: String { root + "/data" }
    /// The file the opener appends its arguments to, one a line.
    public var openedFile: String { root + "/opened" }
    private let lock = NSLock()
    private var current: (guardProcess: ChildProcess, pid: pid_t)?
    /// Whether this broker holds one of `BrokerSlots.shared` (given back once, in `stop()`).
    private var holdsSlot = false

    /// Creates the directories, writes `manifests` (file name → JSON; `@ROOT@` in them becomes
    /// `root`) and starts the broker.
    public init(bus: TestBus, manifests: [String: String] = [:]) async throws {
        self.bus = bus
        var template = Array("/tmp/broker-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw MissingFileError(what: "a temporary directory") }
        root = String(cString: made)
        // Every stored property is set: from here a throw runs deinit, which gives the slot back.
        await BrokerSlots.shared.acquire()
        lock.withLock { holdsSlot = true }
        for directory in ["extensions", "data", "state", "config", "home", "system"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + directory, withIntermediateDirectories: true)
        }
        for (name, json) in manifests {
            try json.replacingOccurrences(of: "@ROOT@", with: root)
                .write(toFile: extensionsDirectory + "/" + name, atomically: true, encoding: .utf8)
        }
        // Run by /bin/sh, never executed itself: a script the test just wrote can be "busy"
        // (ETXTBSY) while a child spawned meanwhile on another thread still holds the write fd.
        try "printf '%s\\n' \"$@\" >> '\(openedFile)'\n".write(
            toFile: root + "/opener", atomically: true, encoding: .utf8)
        try await start()
    }

    deinit { stop() }

    /// The environment for the broker and for clients: this bus, XDG dirs inside `root`, C locale.
    public var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_DATA_HOME"] = dataHome
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["XDG_CONFIG_HOME"] = root + "/config"
        environment["XDG_DATA_DIRS"] = root + "/system"
        environment["HOME"] = root + "/home"
        for key in ["LC_ALL", "LC_MESSAGES", "LANGUAGE"] { environment.removeValue(forKey: key) }
        environment["LANG"] = "C"
        return environment
    }

    /// The broker's pid (of the current instance).
    public var pid: pid_t { lock.withLock { current?.pid ?? 0 } }

    /// What the current broker logged so far.
    public var log: String { lock.withLock { current?.guardProcess.standardError ?? "" } }

    /// The opener's recorded arguments.
    public var opened: [String] {
        ((try? String(contentsOfFile: openedFile, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// Starts a broker (again) and returns once it owns its name.
    public func start() async throws {
        let script = """
            "$@" </dev/null &
            child=$!
            echo "pid=$child"
            while read -r _; do :; done
            kill -KILL "$child" 2>/dev/null
            """
        let process = try ChildProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", script, "broker-guard", try BuiltProducts.executable("activity-broker"), "--bus",
                bus.address,
                "--extensions-dir", extensionsDirectory, "--opener", "/bin/sh \(root)/opener",
            ],
            environment: environment, standardInput: .pipe)
        let pidLine = try await process.nextLine { $0.hasPrefix("pid=") }
        lock.withLock { current = (process, pid_t(pidLine.dropFirst(4)) ?? 0) }
        _ = try await process.nextLine(in: .standardError, deadline: .seconds(30)) {
            $0.contains("owns org.activitybroker.Broker1")
        }
    }

    /// SIGKILLs the current broker (the guard stays until `stop()`).
    public func kill() {
        let pid = self.pid
        if pid > 0 { Glibc.kill(pid, SIGKILL) }
    }

    /// Stops the broker (through its guard) and its bus, and removes the directory. Idempotent.
    public func stop() {
        let process = lock.withLock { () -> ChildProcess? in
            defer { current = nil }
            return current?.guardProcess
        }
        if let process {
            process.closeStandardInput()
            _ = try? process.waitForExit(deadline: .seconds(5))
        }
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
        let release = lock.withLock { () -> Bool in
            defer { holdsSlot = false }
            return holdsSlot
        }
        if release { BrokerSlots.shared.release() }
    }

    /// Starts a new broker after the old one is gone from the bus.
    public func restart() async throws {
        let old = lock.withLock { current?.guardProcess }
        old?.closeStandardInput()
        try await waitForBrokerName(present: false)
        try await start()
    }

    /// Waits until `org.activitybroker.Broker1` has (or has no) owner on the bus.
    public func waitForBrokerName(present: Bool, deadline: Deadline = .seconds(10)) async throws {
        let connection = try bus.connect()
        defer { connection.close() }
        try await waitUntil("the broker name to be \(present ? "owned" : "released")", deadline: deadline) {
            await withCheckedContinuation { continuation in
                connection.nameHasOwner("org.activitybroker.Broker1") {
                    continuation.resume(returning: $0 == present)
                }
            }
        }
    }
}

/// The repository root, found from this file's path (for `extensions/` and `systemd/`).
public let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .path

/// A manifest for an `exec` activity.
public func execManifest(id: String, name: String, category: String = "action", argv: [String], priority: Int = 0)
    -> String
{
    let arguments = argv.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        {"id": "\(id)", "name": "\(name)", "category": "\(category)", "priority": \(priority),
         "perform": {"exec": [\(arguments)]}}
        """
}

/// A manifest for an `open` activity.
public func openManifest(
    id: String, name: String, category: String = "share", template: String, priority: Int = 0,
    schemes: [String]? = nil
) -> String {
    let match =
        schemes.map { ", \"match\": {\"schemes\": [\($0.map { "\"\($0)\"" }.joined(separator: ", "))]}" }
        ?? ""
    return """
        {"id": "\(id)", "name": "\(name)", "category": "\(category)", "priority": \(priority)\(match),
         "perform": {"open": "\(template)"}}
        """
}
