// scripts/run-broker.sh (`make run`) with the test's build: its private bus, --replace, its own state, Ctrl-C cleanup.
import DBus
import Foundation
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
}
