// One private bus plus the real activity-broker binary, with its own XDG directories and scripts.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private `dbus-daemon`, a fresh directory tree for the broker's XDG paths, a built-in
/// extensions directory of test manifests, recording scripts, and the built `activity-broker`
/// started on that bus. One per test: they start in milliseconds and keep tests independent.
///
/// Layout under `root`: `home/`, `data/` (XDG_DATA_HOME), `system/` (XDG_DATA_DIRS),
/// `config/`, `state/`, `builtin/` (`--extensions-dir`), `bin/` (scripts, first on PATH),
/// `out/` (what scripts record).
///
/// Released, it stops the broker with SIGTERM (so that its exec children are killed too),
/// then the bus, and removes the tree; it records an issue if a broker logged anything that
/// was shared through `perform`. At most `BrokerSlots.shared` fixtures live at once
/// (inotify instances are scarce); `init` waits for a slot.
final class BrokerFixture: @unchecked Sendable {
    static let busName = Broker1.busName
    static let path = Broker1.objectPath
    static let interface = Broker1.interface
    static let jobInterface = Job1.interface
    static let errorPrefix = "org.activitybroker.Error."

    let bus: TestBus
    let root: String
    /// The test's own connection to the bus.
    let client: Connection
    /// Brokers started by this fixture, newest last.
    let brokers = Locked<[ChildProcess]>([])
    /// Variables added to (or replacing) the broker's environment; set before starting it.
    let extraEnvironment = Locked<[String: String]>([:])
    /// Every URL, title and text given to `perform`: released, the fixture records an issue
    /// if any broker logged one of them (API.md: the log never holds shared items).
    let sharedItems = Locked<Set<String>>([])

    /// Creates the tree and the bus; writes `builtin` manifests (file name → JSON); starts a
    /// broker unless `start` is false.
    init(
        builtin: [String: String] = [:], arguments: [String] = [], start: Bool = true,
        serviceDirectory: Bool = false
    ) async throws {
        await BrokerSlots.shared.acquire()
        var template = Array("/tmp/broker-service-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            BrokerSlots.shared.release()
            throw MissingFileError(what: "a temporary directory")
        }
        root = String(cString: made)
        do {
            for directory in [
                "home", "data/activity-broker/extensions", "system/activity-broker/extensions", "config",
                "state",
                "builtin", "bin", "out", "services",
            ] {
                try FileManager.default.createDirectory(
                    atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
            }
            bus = try TestBus(serviceDirectory: serviceDirectory ? "\(root)/services" : nil)
            client = try bus.connect()
        } catch {
            // Not fully initialized: deinit will not run.
            try? FileManager.default.removeItem(atPath: root)
            BrokerSlots.shared.release()
            throw error
        }
        try writeScripts()
        for (name, json) in builtin { try write(json, to: "builtin/\(name)") }
        if start { try await startBroker(arguments: arguments) }
    }

    deinit {
        for broker in brokers.value where broker.termination == nil {
            broker.terminate()
            if (try? broker.waitForExit(deadline: .seconds(5))) == nil { broker.kill() }
        }
        // Runs on the test's task when the test releases the fixture, so the issue is the test's.
        let log = log
        for item in sharedItems.value.sorted() where log.contains(item) {
            Issue.record("the broker logged a shared item: \(item)\n\(log)")
        }
        client.close()
        try? FileManager.default.removeItem(atPath: root)
        BrokerSlots.shared.release()
        // Reaping the daemon blocks: keep it off the test's cooperative thread. Should the test
        // process end first, the bus's guard stops the daemon and removes its directory.
        let bus = bus
        Thread { bus.stop() }.start()
    }

    // MARK: Paths and files

    var userExtensions: String { "\(root)/data/activity-broker/extensions" }
    var systemExtensions: String { "\(root)/system/activity-broker/extensions" }
    var builtinExtensions: String { "\(root)/builtin" }
    var usageFile: String { "\(root)/state/activity-broker/usage.json" }
    var opened: String { "\(root)/out/opened" }

    /// A path under `out/` for a script to record into.
    func output(_ name: String) -> String { "\(root)/out/\(name)" }

    /// Writes `text` to `root/relative` atomically (a watcher never sees half a file), with
    /// `mode`.
    ///
    /// The temporary file is opened close-on-exec: a child spawned meanwhile by another test
    /// must not inherit it, or exec'ing the script later fails with ETXTBSY ("Text file busy").
    func write(_ text: String, to relative: String, mode: mode_t = 0o644) throws {
        let path = "\(root)/\(relative)"
        let temporary = path + ".part"  // never *.json: the broker ignores it
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            bytes = bytes.dropFirst(written)
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// `bin/record OUT ARGS…` writes the argument count, then each argument on its own line,
    /// to OUT (via a rename, so OUT appears complete). The opener records into `out/opened`.
    private func writeScripts() throws {
        let record = """
            #!/bin/sh
            out=$1; shift
            { printf '%s\\n' "$#"; for a in "$@"; do printf '%s\\n' "$a"; done; } > "$out.part" && mv "$out.part" "$out"

            """
        try write(record, to: "bin/record", mode: 0o755)
        try write("#!/bin/sh\nexec \(root)/bin/record \(opened) \"$@\"\n", to: "bin/opener", mode: 0o755)
    }

    /// The broker's environment: nothing of ours but the bus, the tree and a plain PATH.
    var brokerEnvironment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": "\(root)/home", "XDG_DATA_HOME": "\(root)/data",
            "XDG_DATA_DIRS": "\(root)/system", "XDG_CONFIG_HOME": "\(root)/config",
            "XDG_STATE_HOME": "\(root)/state",
            "PATH": "\(root)/bin:/usr/local/bin:/usr/bin:/bin",
        ].merging(extraEnvironment.value) { _, extra in extra }
    }

    /// The command line of a broker for this tree.
    func brokerArguments(_ extra: [String] = []) -> [String] {
        [
            "--bus", bus.address, "--extensions-dir", builtinExtensions, "--opener", "\(root)/bin/opener",
            "--verbose",
        ]
            + extra
    }

    // MARK: The broker

    /// The current (newest) broker.
    var broker: ChildProcess { brokers.value.last! }

    /// Everything every broker of this fixture logged.
    var log: String { brokers.value.map(\.standardError).joined() }

    /// Starts a broker and waits until it owns the name (its "owns" log line, which it
    /// writes once the bus granted the name).
    @discardableResult
    func startBroker(arguments: [String] = []) async throws -> ChildProcess {
        let broker = try launchBroker(arguments: arguments)
        _ = try await broker.nextLine(in: .standardError, deadline: .seconds(20)) {
            $0.contains("owns org.activitybroker.Broker1")
        }
        return broker
    }

    /// Starts a broker without waiting for anything.
    func launchBroker(arguments: [String] = []) throws -> ChildProcess {
        let broker = try ChildProcess(
            executable: try BuiltProducts.executable("activity-broker"),
            arguments: brokerArguments(arguments),
            environment: brokerEnvironment)
        brokers.withLock { $0.append(broker) }
        return broker
    }

    /// SIGTERM to the current broker; its exit status.
    func stopBroker() async throws -> ChildProcess.Termination {
        broker.terminate()
        return try await broker.exit(deadline: .seconds(10))
    }

    /// Whether the log mentions none of `secrets` (shared URLs, titles).
    func logOmits(_ secrets: String...) -> Bool {
        let log = log
        return secrets.allSatisfy { !log.contains($0) }
    }
}
