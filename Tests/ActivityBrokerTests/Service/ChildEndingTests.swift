// A job's children end with it (timeout, Cancel, the broker's SIGTERM); an opener's browser does not; no child inherits the broker's service variables.
import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("a job's children end with it")
struct ChildEndingTests {
    static let items: [String: Value] = ["url": .string("https://example.org/ending")]

    /// How a running job is ended.
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case timeout, cancel, shutdown
        var testDescription: String { rawValue }
    }

    /// Reads a pid a script wrote (via a rename, so complete), once it is there.
    static func pid(_ f: BrokerFixture, _ path: String) async throws -> pid_t {
        try await waitUntil("\(path) to be written") { FileManager.default.fileExists(atPath: path) }
        return try #require(pid_t((f.read(path) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// A shell line writing `pid` into `path` complete (a rename).
    static func writePid(_ pid: String, to path: String) -> String {
        "echo \(pid) > \(path).part && mv \(path).part \(path)"
    }

    /// Performs `id` (with a 1 s timeout for `.timeout`), lets `ready` see the children, then
    /// ends the job the `ending` way and waits for that end.
    static func performAndEnd(
        _ f: BrokerFixture, _ id: String, _ ending: Ending, ready: () async throws -> Void
    ) async throws {
        let finished = f.finishedSignals()
        let options: [String: Value] = ending == .timeout ? ["timeout": .uint32(1)] : [:]
        let job = try await f.perform(id, Self.items, options: options)
        try await ready()
        switch ending {
        case .timeout:
            #expect(try await f.finished(job, in: finished).state == "failed")
        case .cancel:
            try await f.call("Cancel", path: job, interface: BrokerFixture.jobInterface)
            #expect(try await f.finished(job, in: finished).state == "cancelled")
        case .shutdown:
            #expect(try await f.stopBroker() == .exited(0))
        }
    }

    /// The leader died of SIGTERM and its exit cancelled the SIGKILL escalation; at shutdown
    /// the SIGTERM was queued behind an exit(0) that came first. A member ignoring SIGTERM
    /// ran on for good either way.
    @Test(
        "an exec child's descendant that ignores SIGTERM is gone after the job ends",
        arguments: Ending.allCases)
    func descendantIgnoringSIGTERMEnds(_ ending: Ending) async throws {
        let f = try await BrokerFixture(start: false)
        let pidFile = f.output("stubborn")
        try f.write(
            TestManifest.json(
                id: "org.test.stubborn",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "(trap '' TERM; exec sleep 600) & \(Self.writePid("$!", to: pidFile)); wait",
                ])),
            to: "builtin/stubborn.json")
        try await f.startBroker()
        var stubborn: pid_t = 0
        defer { if stubborn > 0 { kill(stubborn, SIGKILL) } }
        try await Self.performAndEnd(f, "org.test.stubborn", ending) {
            stubborn = try await Self.pid(f, pidFile)
        }
        try await waitUntil("the descendant that ignores SIGTERM to be gone", deadline: .seconds(20)) {
            processIsGone(stubborn)
        }
    }

    /// The opener (xdg-open's generic path) runs the browser in the foreground, as its child in
    /// its group: the group's SIGTERM at the job's end killed the user's browser.
    @Test("an opener's foreground browser outlives the job and the broker", arguments: Ending.allCases)
    func openerBrowserSurvives(_ ending: Ending) async throws {
        let f = try await BrokerFixture(start: false)
        let openerFile = f.output("opener-pid")
        let browserFile = f.output("browser-pid")
        try f.write(
            """
            #!/bin/sh
            \(Self.writePid("$$", to: openerFile))
            /bin/sh -c '\(Self.writePid("$$", to: browserFile)); exec sleep 600'

            """, to: "bin/opener", mode: 0o755)
        try f.write(
            TestManifest.json(id: "org.test.open", perform: #"{"open": "https://share.example/?u={url}"}"#),
            to: "builtin/open.json")
        try await f.startBroker()
        var opener: pid_t = 0
        var browser: pid_t = 0
        defer { if browser > 0 { kill(browser, SIGKILL) } }
        try await Self.performAndEnd(f, "org.test.open", ending) {
            opener = try await Self.pid(f, openerFile)
            browser = try await Self.pid(f, browserFile)
        }
        try await waitUntil("the opener to be gone", deadline: .seconds(20)) { processIsGone(opener) }
        if ending != .shutdown {
            // Past the job's SIGKILL escalation: the broker's exit waits for every child it owes an end.
            #expect(try await f.stopBroker() == .exited(0))
        }
        // The broker is gone, so nothing of it can signal the browser any more.
        #expect(!processIsGone(browser))
    }

    /// Variables that describe how the broker was started (D-Bus activation, systemd) reached
    /// every child.
    @Test("a child inherits none of the broker's activation and service-manager variables")
    func serviceVariablesStayWithTheBroker() async throws {
        let variables = [
            "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID", "DBUS_STARTER_BUS_TYPE", "NOTIFY_SOCKET",
            "LISTEN_FDS",
            "LISTEN_PID", "LISTEN_FDNAMES", "INVOCATION_ID", "JOURNAL_STREAM", "WATCHDOG_USEC",
            "WATCHDOG_PID",
        ]
        let f = try await BrokerFixture(start: false)
        var extra = Dictionary(uniqueKeysWithValues: variables.map { ($0, "broker-\($0)") })
        // libdbus reads it for the starter bus only: the test bus's own address is harmless.
        extra["DBUS_STARTER_ADDRESS"] = f.brokerEnvironment["DBUS_SESSION_BUS_ADDRESS"]
        extra["LISTEN_FDS"] = "0"
        extra["KEPT_VARIABLE"] = "kept"
        f.extraEnvironment.value = extra
        let envFile = f.output("env")
        try f.write(
            TestManifest.json(
                id: "org.test.env",
                perform: TestManifest.exec([
                    "/bin/sh", "-c", "env > \(envFile).part && mv \(envFile).part \(envFile)",
                ])),
            to: "builtin/env.json")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.env", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        let names = Set(
            (f.read(envFile) ?? "").split(separator: "\n").compactMap {
                $0.split(separator: "=").first.map(String.init)
            })
        #expect(names.contains("KEPT_VARIABLE"))
        for name in variables + ["DBUS_STARTER_ADDRESS"] {
            #expect(!names.contains(name), "\(name) reached the child")
        }
    }
}
