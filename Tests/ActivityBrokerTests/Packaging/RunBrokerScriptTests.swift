// scripts/run-broker.sh (`make run`) with the test's build: its private bus, --replace, its own state, Ctrl-C cleanup.
import DBus
import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("make run's script")
struct RunBrokerScriptTests {
    /// Asks the bus `member` about `name` (e.g. `NameHasOwner`).
    static func ask(_ connection: Connection, _ member: MemberName, _ name: String) async throws -> Value? {
        try await connection.call(
            MethodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus",
                member: member, body: [.string(name)]),
            timeout: Deadline.standardWait
        ).first
    }

    @Test(
        "with no session bus it starts one, runs the broker with --replace and its own state, and Ctrl-C removes everything"
    )
    func interruptCleansUp() async throws {
        let root = try TemporaryDirectory(prefix: "run-broker")
        defer { root.remove() }
        let temporary = try root.directory("tmp")
        let state = root.file("state")
        // In a process group of its own (setsid execs it in place), so that SIGINT can go to the
        // whole group, as Ctrl-C in a terminal does.
        let script = try ChildProcess(
            executable: "/usr/bin/setsid",
            arguments: [
                "/bin/bash", repositoryRoot + "/scripts/run-broker.sh", BuiltProducts.directory.path,
            ],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": root.path, "TMPDIR": temporary.path, "LANG": "C",
                "XDG_DATA_HOME": root.file("data"), "XDG_DATA_DIRS": root.file("system"),
                "XDG_CONFIG_HOME": root.file("config"), "REPLACE": "1", "RUN_STATE": state,
            ],
            workingDirectory: repositoryRoot)
        defer { script.kill() }
        let export = try await script.nextLine {
            $0.contains("export DBUS_SESSION_BUS_ADDRESS=")
        }
        let address = String(export.split(separator: "'").dropFirst().first ?? "")
        #expect(address.hasPrefix("unix:"), "\(export)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1)

        let connection = try Connection(bus: .address(address))
        defer { connection.close() }
        try await waitUntil("the broker owns its name", deadline: .seconds(30)) {
            try await Self.ask(connection, "NameHasOwner", "org.activitybroker.Broker1") == .boolean(true)
        }
        let pid = try #require(
            try await Self.ask(connection, "GetConnectionUnixProcessID", "org.activitybroker.Broker1")?.uint32
        )
        let arguments = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(arguments.split(separator: "\0").contains("--replace"), "\(arguments)")
        let environment = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? ""
        #expect(environment.split(separator: "\0").contains("XDG_STATE_HOME=\(state)"))

        #expect(getpgid(script.pid) == script.pid)
        kill(-script.pid, SIGINT)
        let termination = try await script.exit()
        #expect(termination == .exited(130), "\(script.standardOutput)\n\(script.standardError)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [],
            "the bus directory is left")
        #expect(kill(pid_t(pid), 0) == -1 && errno == ESRCH, "the broker still runs")
    }

    @Test("when its private dbus-daemon cannot start, it says why and exits non-zero, leaving nothing behind")
    func daemonFailureIsReported() async throws {
        // It exited 1 without a word: the daemon's stderr went to /dev/null and `read` hit EOF.
        let root = try TemporaryDirectory(prefix: "run-broker-no-bus")
        defer { root.remove() }
        let temporary = try root.directory("tmp")
        let bin = try root.directory("bin")
        let complaint = "Failed to start message bus: Failed to bind socket: Permission denied"
        // Close-on-exec while written (AtomicFile): exec'ing it must not meet ETXTBSY.
        try AtomicFile.write(
            Array("#!/bin/sh\necho '\(complaint)' >&2\nexit 1\n".utf8), to: bin.file("dbus-daemon"),
            permissions: 0o755, directoryPermissions: 0o755)
        let run = try await runCommand(
            "/bin/bash", [repositoryRoot + "/scripts/run-broker.sh", BuiltProducts.directory.path],
            environment: [
                "PATH": "\(bin.path):/usr/bin:/bin", "HOME": root.path, "TMPDIR": temporary.path, "LANG": "C",
                "RUN_STATE": root.file("state"),
            ])
        #expect(run.termination != .exited(0), "\(run.transcript)")
        #expect(run.standardError.contains("cannot start dbus-daemon: \(complaint)"), "\(run.transcript)")
        #expect(!run.standardOutput.contains("Starting activity-broker"), "\(run.transcript)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [],
            "the bus directory is left")
    }
}
