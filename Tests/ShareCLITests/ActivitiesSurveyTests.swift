// `share activities` reports the manifest files the broker skipped and ids defined by two files.
import ActivityKit
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct ActivitiesSurveyTests {
    private static let copy = """
        {"id": "test.copy", "name": "Copy (user)", "category": "action",
         "perform": {"exec": ["/bin/true"]}}
        """

    /// A broker not yet started whose built-in `copy.json` defines `test.copy`, with the user's
    /// manifest directory made.
    private static func brokerWithBuiltinCopy() async throws -> BrokerHarness {
        let broker = try await BrokerHarness(
            bus: TestBus.start(),
            manifests: [
                "copy.json": """
                {"id": "test.copy", "name": "Copy (builtin)", "category": "action",
                 "perform": {"exec": ["/bin/true"]}}
                """
            ], start: false)
        do {
            try FileManager.default.createDirectory(
                atPath: broker.layout.userExtensions, withIntermediateDirectories: true)
        } catch {
            broker.stopInBackground()
            throw error
        }
        return broker
    }

    @Test func brokenFilesAndCollisionsAreListedWithTheWinner() async throws {
        let broker = try await Self.brokerWithBuiltinCopy()
        defer { broker.stopInBackground() }
        let user = broker.layout.userExtensions
        // Another file name, same id: the user's file wins over the built-in one.
        try Self.copy.write(toFile: user + "/my-copy.json", atomically: true, encoding: .utf8)
        try "{\n  \"id\": \"test.broken\",\n  \"name\": [\"x\"]\n}".write(
            toFile: user + "/broken.json", atomically: true, encoding: .utf8)
        try await broker.start()

        let run = try await broker.share([
            "activities", "--extensions-dir", broker.layout.extensionsDirectory,
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Copy (user) [user]"), "the broker agrees on the winner: \(run.output)")
        #expect(run.output.contains("Broken manifest files (skipped by the broker):"))
        #expect(
            run.output.contains("\(user)/broken.json:3:11: error: name: expected a string, found an array"))
        #expect(run.output.contains("Activity ids defined by more than one file:"))
        #expect(
            run.output.contains(
                "copy.json (builtin): id 'test.copy' is already defined by my-copy.json (user); ignored: user beats system"
            ),
            "\(run.output)")

        // JSON stays one array on standard output; the findings go to standard error.
        let json = try await broker.share([
            "activities", "--json", "--extensions-dir", broker.layout.extensionsDirectory,
        ])
        #expect(json.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(json.output.utf8))) is [Any])
        #expect(json.errors.contains("broken.json:3:11"))
    }

    @Test func nothingMoreWhenEveryFileLoads() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share([
            "activities", "--extensions-dir", broker.layout.extensionsDirectory,
        ])
        #expect(run.status == 0)
        #expect(!run.output.contains("Broken manifest files"))
        #expect(!run.output.contains("more than one file"))
    }

    @Test(
        "a white-space file over 1 MiB was surveyed as masking the built-in; the broker skips it for its size"
    )
    func oversizedWhiteSpaceFileIsBrokenNotAMask() async throws {
        let broker = try await Self.brokerWithBuiltinCopy()
        defer { broker.stopInBackground() }
        let user = broker.layout.userExtensions
        try String(repeating: " ", count: Manifest.maxFileSize + 1).write(
            toFile: user + "/copy.json", atomically: true, encoding: .utf8)
        try await broker.start()

        let run = try await broker.share([
            "activities", "--extensions-dir", broker.layout.extensionsDirectory,
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Copy (builtin) [builtin]"), "the broker did not mask it: \(run.output)")
        #expect(run.output.contains("Broken manifest files (skipped by the broker):"), "\(run.output)")
        #expect(
            run.output.contains("\(user)/copy.json:1:1: error: the file is larger than 1 MiB"),
            "\(run.output)")
    }
}
