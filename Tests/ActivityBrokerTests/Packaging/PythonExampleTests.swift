// docs/examples/notes-provider.py, as documented, against the real broker on a private bus.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("The documented Python provider example")
struct PythonExampleTests {
    static let example = repositoryRoot + "/docs/examples/notes-provider.py"
    static let activity = "org.example.Notes.save"

    @Test(
        "it registers Save to Notes, performs into the notes file and refuses callers other than the broker")
    func notesProviderRuns() async throws {
        let f = try await BrokerFixture()
        let notes = f.output("notes.txt")
        let provider = try ChildProcess(
            executable: "/usr/bin/python3", arguments: [Self.example, notes],
            environment: f.harness.environment)
        defer { provider.terminate() }
        let started = try await provider.nextLine { $0.hasPrefix("registered ") }
        #expect(
            started.hasPrefix("registered \(Self.activity) as :"), "\(started)\n\(provider.standardError)")

        let offered = try await f.offeredRecords("https://example.org/page")
        let record = offered.first { $0["id"]?.string == Self.activity }
        #expect(record?["name"]?.string == "Save to Notes", "\(offered)")
        #expect(record?["category"]?.string == "action")
        #expect(record?["origin"]?.string == "dbus")
        let german = try await f.offeredRecords(
            "https://example.org/page", options: ["locale": .string("de_DE")])
        #expect(german.first { $0["id"]?.string == Self.activity }?["name"]?.string == "In Notizen sichern")
        // Its match rule: https only.
        #expect(try await f.offered("http://example.org/page").contains(Self.activity) == false)

        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await f.perform(
            Self.activity, ["url": .string("https://example.org/saved-page"), "title": .string("Saved Page")])
        let outcome = try await f.finished(job, in: finished)
        #expect(outcome.state == "completed", "\(outcome.results)\n\(provider.standardError)")
        #expect(outcome.results["saved"] == .boolean(true))
        #expect(f.read(notes) == "Saved Page\thttps://example.org/saved-page\n")

        // Anyone but the broker is refused, and nothing is written.
        let uniqueName = try BusName(String(started.split(separator: " ").last ?? ""))
        let stranger = try f.bus.connect()
        defer { stranger.close() }
        let call = MethodCall(
            destination: uniqueName, path: "/org/example/Notes", interface: "org.activitybroker.Provider1",
            member: "Perform",
            body: [
                .string(Self.activity), .vardict(["url": .string("https://example.org/forged")]),
                .vardict([:]),
            ])
        do {
            _ = try await stranger.call(call, timeout: Deadline.standardWait)
            Issue.record("a non-broker caller was served")
        } catch {
            #expect(error.name == "org.activitybroker.Error.AccessDenied", "\(error)")
        }
        #expect(f.read(notes) == "Saved Page\thttps://example.org/saved-page\n")
    }
}
