// A private dbus-daemon for one test suite: own config, own socket, dies with the test process.
import DBus
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private `dbus-daemon` listening on a unix socket in a fresh temporary directory, with an
/// allow-all policy, the limits of a desktop session bus (session.conf: e.g. 50,000 pending
/// replies per connection, not the built-in 128) and optionally a `servicedir` for activation.
///
/// `init` returns once the daemon prints its address (`--print-address`), which it does only
/// when it is listening: no polling, no sleeps. `stop()` terminates and reaps it and removes
/// the directory. Both block: async tests use `start(...)` and `stopOffPool()`, which block a
/// thread of their own instead of a concurrency-pool thread (`offPool`), and
/// `stopInBackground()` in a `defer`. Released without a stop, the bus stops in the background.
///
/// The daemon runs under a small `/bin/sh` guard whose stdin is a pipe from this process: when
/// the test process dies, however it dies, the pipe closes and the guard kills the daemon.
/// Activated services inherit `DBUS_SESSION_BUS_ADDRESS` pointing at this bus.
public final class TestBus: @unchecked Sendable, BlockingStop {
    /// The address to connect to, e.g. `unix:path=/tmp/testbus.Ab12Cd/bus,guid=…`.
    public let address: String
    /// The temporary directory holding the socket and the config.
    public let directory: String
    /// The daemon's pid.
    public let daemonPID: pid_t
    private let guardProcess: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts a daemon; throws `StartError` (with its output) if it does not come up by `deadline`.
    ///
    /// - `serviceDirectory`: a directory of `.service` files for activation.
    /// - `daemon`: the dbus-daemon executable.
    public init(
        serviceDirectory: String? = nil, daemon: String = "dbus-daemon", deadline: Deadline = .standard
    ) throws {
        directory = try TemporaryDirectory(prefix: "testbus").path
        let socket = directory + "/bus"
        let configPath = directory + "/bus.conf"
        var config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>

            """
        if let serviceDirectory { config += "  <servicedir>\(serviceDirectory)</servicedir>\n" }
        config += """
              <policy context="default">
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
                <allow own="*"/>
              </policy>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <limit name="service_start_timeout">120000</limit>
              <limit name="max_completed_connections">100000</limit>
              <limit name="max_incomplete_connections">10000</limit>
              <limit name="max_connections_per_user">100000</limit>
              <limit name="max_pending_service_starts">10000</limit>
              <limit name="max_names_per_connection">50000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
              <limit name="max_replies_per_connection">50000</limit>
            </busconfig>

            """
        do {
            try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw StartError(description: "cannot write \(configPath): \(error)")
        }

        // The guard: starts the daemon, reports its pid, waits for EOF on stdin (our pipe: it
        // closes on stop() or when this process dies), then stops the daemon and removes the
        // directory.
        let script = """
            dir=$1; shift
            "$@" </dev/null &
            daemon=$!
            echo "daemon-pid=$daemon"
            exec 3>&-
            while read -r _; do :; done
            kill -TERM "$daemon" 2>/dev/null
            wait "$daemon"
            rm -rf "$dir"
            """
        let addressPipe = try ChildProcess.makePipe()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(socket)"
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c", script, "testbus-guard", directory, daemon, "--nofork", "--config-file=\(configPath)",
                    "--print-address=3",
                ],
                environment: environment, standardInput: .pipe, fileDescriptors: [3: addressPipe.write])
        } catch {
            close(addressPipe.read)
            close(addressPipe.write)
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        close(addressPipe.write)
        defer { close(addressPipe.read) }
        guardProcess = process

        let line = ReadinessLine.read(addressPipe.read, deadline: deadline)
        let pidLine = try? process.waitForLine(deadline: deadline) { $0.hasPrefix("daemon-pid=") }
        daemonPID = pidLine.flatMap { pid_t($0.dropFirst("daemon-pid=".count)) } ?? 0
        guard let line, !line.isEmpty else {
            process.closeStandardInput()
            _ = try? process.waitForExit(deadline: .seconds(5))
            process.kill()
            try? FileManager.default.removeItem(atPath: directory)
            throw StartError(
                description: "dbus-daemon did not print its address: \(process.standardOutput) \(process.standardError)")
        }
        address = line
    }

    /// `init` on a thread of its own (`offPool`): for async tests.
    public static func start(
        serviceDirectory: String? = nil, daemon: String = "dbus-daemon", deadline: Deadline = .standard
    ) async throws -> TestBus {
        try await offPool {
            try TestBus(serviceDirectory: serviceDirectory, daemon: daemon, deadline: deadline)
        }
    }

    deinit {
        guard markStopped() else { return }
        let (guardProcess, daemonPID, directory) = (guardProcess, daemonPID, directory)
        BackgroundCleanup.run {
            Self.shutDown(guardProcess: guardProcess, daemonPID: daemonPID, directory: directory)
        }
    }

    /// The environment for a child process that should use this bus (this process's
    /// environment with `DBUS_SESSION_BUS_ADDRESS` replaced).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// A new private connection to this bus.
    public func connect() throws(DBusError) -> Connection {
        try Connection(bus: .address(address))
    }

    /// Stops the daemon and reaps it, then removes the directory. Idempotent. Blocks meanwhile.
    public func stop() {
        guard markStopped() else { return }
        Self.shutDown(guardProcess: guardProcess, daemonPID: daemonPID, directory: directory)
    }

    /// Whether this call is the first to stop the bus.
    private func markStopped() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !stopped
        stopped = true
        return first
    }

    private static func shutDown(guardProcess: ChildProcess, daemonPID: pid_t, directory: String) {
        guardProcess.closeStandardInput()
        if (try? guardProcess.waitForExit(deadline: .seconds(5))) == nil {
            if daemonPID > 0 { kill(daemonPID, SIGKILL) }
            guardProcess.kill()
            _ = try? guardProcess.waitForExit(deadline: .seconds(5))
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Closes this process's end of the guard pipe, exactly what the kernel does when the test
    /// process dies; the guard then stops the daemon. For testing the guard itself.
    public func closeGuardPipe() {
        guardProcess.closeStandardInput()
    }

    /// What the daemon wrote to stderr (warnings, activation failures), for diagnostics.
    public var daemonOutput: String { guardProcess.standardError }
}
