// An installed application launched from its desktop entry is detached: its job completes at once, nothing of the broker ends it.
import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("installed applications are launched detached")
struct DetachedApplicationTests {
    static let items: [String: Value] = ["url": .string("https://example.org/")]

    /// A broker with one desktop entry whose program writes its pid and then runs on.
    static func start() async throws -> (BrokerFixture, pidFile: String) {
        let f = try await BrokerFixture(start: false)
        let pidFile = f.output("app-pid")
        try FileManager.default.createDirectory(
            atPath: "\(f.root)/data/applications", withIntermediateDirectories: true)
        try f.write(
            """
            #!/bin/sh
            echo $$ > \(pidFile).part && mv \(pidFile).part \(pidFile)
            exec sleep 1000

            """, to: "bin/long-browser", mode: 0o755)
        try f.write(
            DesktopAndPrivacyTests.desktopEntry(name: "Long Browser", exec: "\(f.root)/bin/long-browser %u"),
            to: "data/applications/org.test.long.desktop")
        try await f.startBroker()
        return (f, pidFile)
    }

    /// The pid the application wrote, once it is there.
    static func applicationPid(_ f: BrokerFixture, _ pidFile: String) async throws -> pid_t {
        try await waitUntil("the application to write its pid") {
            FileManager.default.fileExists(atPath: pidFile)
        }
        return try #require(pid_t((f.read(pidFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(
        "The job completes while the application runs; a Cancel after that and the broker's SIGTERM leave it running"
    )
    func outlivesJobAndBroker() async throws {
        let (f, pidFile) = try await Self.start()
        let finished = f.finishedSignals()
        let job = try await f.perform("desktop.org.test.long", Self.items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        let pid = try await Self.applicationPid(f, pidFile)
        defer { kill(pid, SIGKILL) }
        #expect(!processIsGone(pid))
        // Its own session: no signal to a group of the broker's reaches it.
        #expect(getsid(pid) == pid)

        try await f.call("Cancel", path: job, interface: BrokerFixture.jobInterface)  // nothing to cancel
        try await f.settle()
        #expect(!processIsGone(pid))
        #expect(finished.items.filter { $0.path == job }.count == 1)

        #expect(try await f.stopBroker() == .exited(0))
        // Still running, not a zombie or killed and waiting to be reaped.
        #expect(!processIsGone(pid))
    }
}
