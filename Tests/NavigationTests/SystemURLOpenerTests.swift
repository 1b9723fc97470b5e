// SystemURLOpenerTests: the default opener spawns without a shell, with a clean signal mask.

import Foundation
import Navigation
import Testing

@Suite("System URL opener")
struct SystemURLOpenerTests {
    @Test func urlIsOneArgumentAndNeverInterpreted() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out").path
        // The test's own script prints its one argument; the URL must arrive unchanged.
        let opener = SystemURLOpener(command: ["/bin/sh", "-c", "printf %s \"$1\" > '\(output)'", "sh"])
        let url = URL(string: "https://example.com/a?b=$(touch%20x);c&d=%60id%60")!
        try await opener.open(url)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == url.absoluteString)
    }

    @Test func childStartsWithNoBlockedSignals() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("mask").path
        // grep reads its own mask (/proc/self); the shell's own mask is full while it forks.
        let opener = SystemURLOpener(command: [
            "/bin/sh", "-c", "exec grep SigBlk /proc/self/status > '\(output)'", "sh",
        ])
        try await opener.open(URL(string: "https://example.com/")!)
        let line = try String(contentsOfFile: output, encoding: .utf8)
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("0000000000000000"))
    }

    @Test func failingOpenerReportsItsStatus() async {
        await #expect(throws: URLOpenerError.exited(program: "/bin/false", status: 1)) {
            try await SystemURLOpener(command: ["/bin/false"]).open(URL(string: "https://example.com/")!)
        }
    }

    @Test func missingOpenerIsASpawnFailure() async {
        await #expect {
            try await SystemURLOpener(command: ["activity-broker-no-such-opener"]).open(
                URL(string: "https://example.com/")!)
        } throws: { error in
            if case URLOpenerError.spawnFailed(let program, _) = error {
                return program == "activity-broker-no-such-opener"
            }
            return false
        }
    }
}

/// A fresh empty directory under the temporary directory.
private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "opener-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
