// The service tests' broker: TestSupport's harness plus recording scripts and the log privacy check.
import ActivityBrokerInterface
import DBus
import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The service tests' broker: TestSupport's `BrokerHarness` (private bus, `BrokerLayout`
/// tree, the built `activity-broker`, readiness on the bus) with `--verbose`, recording
/// scripts in `bin/` and this suite's privacy check. One per test: they start in milliseconds
/// and keep tests independent.
///
/// `bin/record OUT ARGS…` records into `out/`; the opener records into `out/opened`.
///
/// Released, it stops the brokers with SIGTERM (so that their exec children are killed too),
/// records an issue if a broker logged anything that was shared through `perform`, then stops
/// the bus and removes the tree.
final class BrokerFixture: @unchecked Sendable {
    static let busName = Broker1.busName
    static let path = Broker1.objectPath
    static let interface = Broker1.interface
    static let jobInterface = Job1.interface
    static let errorPrefix = "org.activitybroker.Error."

    let harness: BrokerHarness
    /// The test's own connection to the bus.
    let client: Connection
    /// Every URL, title and text given to `perform`: released, the fixture records an issue
    /// if any broker logged one of them (API.md: the log never holds shared items).
    let sharedItems = Locked<Set<String>>([])

    var bus: TestBus { harness.bus }
    var root: String { harness.root }
    /// Brokers started by this fixture, newest last.
    var brokers: Locked<[ChildProcess]> { harness.brokers }
    /// Variables added to (or replacing) the broker's environment; set before starting it.
    var extraEnvironment: Locked<[String: String]> { harness.extraEnvironment }

    /// Creates the tree and the bus; writes `builtin` manifests (file name → JSON); starts a
    /// broker unless `start` is false.
    init(
        builtin: [String: String] = [:], arguments: [String] = [], start: Bool = true,
        serviceDirectory: Bool = false
    ) async throws {
        harness = try await BrokerHarness(
            serviceDirectory: serviceDirectory, opener: { $0.bin + "/opener" }, arguments: ["--verbose"],
            start: false)
        client = try harness.bus.connect()
        try writeScripts()
        for (name, json) in builtin { try write(json, to: "builtin/\(name)") }
        if start { try await startBroker(arguments: arguments) }
    }

    deinit {
        harness.stopBrokers()
        // Runs on the test's task when the test releases the fixture, so the issue is the test's.
        let log = log
        for item in sharedItems.value.sorted() where log.contains(item) {
            Issue.record("the broker logged a shared item: \(item)\n\(log)")
        }
        client.close()
        // Reaping the daemon blocks: keep it off the test's cooperative thread. Should the test
        // process end first, the bus's guard stops the daemon and removes its directory.
        let harness = harness
        Thread { harness.stop() }.start()
    }

    // MARK: Paths and files

    var userExtensions: String { harness.layout.userExtensions }
    var systemExtensions: String { harness.layout.systemExtensions }
    var builtinExtensions: String { harness.layout.extensionsDirectory }
    var usageFile: String { harness.layout.usageFile }
    var opened: String { harness.layout.out + "/opened" }

    /// A path under `out/` for a script to record into.
    func output(_ name: String) -> String { "\(root)/out/\(name)" }

    /// Writes `text` to `root/relative` atomically (a watcher never sees half a file), with
    /// `mode`. `AtomicFile` opens its temporary close-on-exec: a child spawned meanwhile by
    /// another test must not inherit it, or exec'ing the script later fails with ETXTBSY.
    func write(_ text: String, to relative: String, mode: mode_t = 0o644) throws {
        try AtomicFile.write(Array(text.utf8), to: "\(root)/\(relative)", permissions: mode, directoryPermissions: 0o755)
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

    // MARK: The broker

    /// The broker's environment: nothing of ours but the bus, the tree and a plain PATH.
    var brokerEnvironment: [String: String] { harness.environment }

    /// The current (newest) broker.
    var broker: ChildProcess { harness.broker }

    /// Everything every broker of this fixture logged.
    var log: String { harness.log }

    /// Starts a broker and waits until the bus says it owns the name.
    @discardableResult
    func startBroker(arguments: [String] = []) async throws -> ChildProcess {
        try await harness.start(arguments: arguments)
    }

    /// Starts a broker without waiting for anything.
    @discardableResult
    func launchBroker(arguments: [String] = []) throws -> ChildProcess {
        try harness.launch(arguments: arguments)
    }

    /// SIGTERM to the current broker; its exit status.
    func stopBroker() async throws -> ChildProcess.Termination {
        try await harness.stopBroker()
    }

    /// Whether the log mentions none of `secrets` (shared URLs, titles).
    func logOmits(_ secrets: String...) -> Bool {
        let log = log
        return secrets.allSatisfy { !log.contains($0) }
    }
}
