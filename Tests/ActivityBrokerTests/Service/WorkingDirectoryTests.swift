// A desktop entry whose Path= directory is missing fails naming that directory, not "program not found".
import DBus
import Foundation
import TestSupport
import Testing

@Suite("a missing Path= directory")
struct WorkingDirectoryTests {
    @Test("fails the job naming the directory, not the program as missing")
    func missingDirectoryIsNamed() async throws {
        let f = try await BrokerFixture(start: false)
        let missing = "\(f.root)/no-such-directory"
        try FileManager.default.createDirectory(
            atPath: "\(f.root)/data/applications", withIntermediateDirectories: true)
        try f.write("#!/bin/sh\nexit 0\n", to: "bin/app", mode: 0o755)
        try f.write(
            DesktopAndPrivacyTests.desktopEntry(name: "No Directory", exec: "\(f.root)/bin/app %u")
                + "Path=\(missing)\n",
            to: "data/applications/org.test.nodir.desktop")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("desktop.org.test.nodir", ["url": .string("https://example.org/")])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed")
        let message = end.results["message"]?.string ?? ""
        #expect(message.contains(missing), "\(message)")
        #expect(!message.contains("program not found"), "\(message)")
    }
}
