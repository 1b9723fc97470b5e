// `share check FILE…` end to end: located errors, warnings, exit statuses; no broker involved.
import ActivityKit
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct CheckCommandTests {
    /// Writes `files` to a fresh directory and runs `share check` on them (in the given order).
    private func check(_ files: [(String, String)], extra: [String] = []) async throws -> (ShareRun, String) {
        let directory = try TemporaryDirectory(prefix: "share-check")
        for (name, text) in files {
            try text.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
        }
        let environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let run = try await runShare(
            ["check"] + files.map { directory.file($0.0) } + extra, environment: environment)
        return (run, directory.path)
    }

    private let valid = """
        {
          "id": "test.valid",
          "name": "Valid",
          "category": "share",
          "perform": {"open": "https://valid.example/?u={url}"}
        }
        """

    @Test func aValidFileExits0AndSaysOK() async throws {
        let (run, directory) = try await check([("valid.json", valid)])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.lines == ["\(directory)/valid.json: ok (test.valid)"])
    }

    @Test func aSyntaxErrorHasFileLineAndColumnAndExits2() async throws {
        let (run, directory) = try await check([("broken.json", "{\n  \"id\": \"a.b\"\n  \"name\": \"x\"\n}")]
        )
        #expect(run.status == 2)
        #expect(
            run.lines == [
                "\(directory)/broken.json:3:3: error: not valid JSON: expected ',' or '}' in an object, found '\"'"
            ])
    }

    @Test func aFieldErrorHasTheFieldPathAtItsValue() async throws {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "action",
              "perform": {"exec": ["{url}", "--open"]}
            }
            """
        let (run, directory) = try await check([("exec.json", text)])
        #expect(run.status == 2)
        let line = try #require(run.lines.first)
        #expect(line.hasPrefix("\(directory)/exec.json:3:24: error: perform.exec[0]: "), "\(line)")
        #expect(run.lines.count == 1)
    }

    @Test func unknownKeysAreWarningsAndExit0() async throws {
        let text = """
            {
              "id": "test.typo", "name": "Typo",
              "catgory": "share", "category": "share",
              "perform": {"open": "https://typo.example/?u={url}"}
            }
            """
        let (run, directory) = try await check([("typo.json", text)])
        #expect(run.status == 0, "warnings alone exit 0: \(run.output)")
        #expect(
            run.lines == [
                "\(directory)/typo.json:3:3: warning: unknown key 'catgory' (did you mean 'category'?)",
                "\(directory)/typo.json: ok (test.typo)",
            ])
    }

    @Test func oneBadFileAmongGoodOnesExits2AndEveryFileIsReported() async throws {
        let (run, directory) = try await check([
            ("valid.json", valid), ("bad.json", "{\"id\": \"test.bad\", \"name\": 5}"),
        ])
        #expect(run.status == 2)
        #expect(run.lines.contains("\(directory)/valid.json: ok (test.valid)"))
        #expect(
            run.lines.contains("\(directory)/bad.json:1:28: error: name: expected a string, found an integer")
        )
    }

    @Test func aMissingFileIsAnError() async throws {
        let (run, directory) = try await check([("valid.json", valid)], extra: ["/nonexistent/none.json"])
        #expect(run.status == 2)
        #expect(run.lines.first == "\(directory)/valid.json: ok (test.valid)")
        #expect(
            run.lines.last?.hasPrefix("/nonexistent/none.json: error: cannot read the file: ") == true,
            "\(run.lines)")
    }

    @Test func theSameIDInTwoFilesIsAWarning() async throws {
        let (run, directory) = try await check([("a.json", valid), ("b.json", valid)])
        #expect(run.status == 0)
        #expect(
            run.lines.contains(
                "\(directory)/b.json: warning: id 'test.valid' is also defined by \(directory)/a.json"))
    }

    @Test func anEmptyFileIsAMask() async throws {
        let (run, directory) = try await check([("mask.json", "")])
        #expect(run.status == 0)
        #expect(
            run.lines == [
                "\(directory)/mask.json: ok (empty: masks a file of the same name in a lower directory)"
            ])
    }

    @Test func everyShippedManifestPasses() async throws {
        let directory = repositoryRoot + "/extensions"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(!files.isEmpty)
        let run = try await runShare(
            ["check"] + files.map { directory + "/" + $0 }, environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("warning"), "\(run.output)")
        #expect(run.lines.count == files.count)
    }

    @Test func checkWithoutFilesIsUsage() async throws {
        let run = try await runShare(["check"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 2)
        #expect(run.errors.contains("share check FILE"))
    }

    @Test(
        "a white-space file over 1 MiB passed as a mask; the broker skips it for its size, so it is an error")
    func oversizedWhiteSpaceFileIsAnErrorNotAMask() async throws {
        let limit = Manifest.maxFileSize
        let (run, directory) = try await check([
            ("big.json", String(repeating: " \n", count: limit / 2) + " "),
            ("at-limit.json", String(repeating: " ", count: limit)),
        ])
        #expect(run.status == 2, "\(run.output)")
        #expect(
            run.lines == [
                "\(directory)/big.json:1:1: error: the file is larger than 1 MiB",
                "\(directory)/at-limit.json: ok (empty: masks a file of the same name in a lower directory)",
            ])
        // The same report as a file over the limit that is not white space.
        let (json, jsonDirectory) = try await check([("big.json", "{" + String(repeating: " ", count: limit))]
        )
        #expect(json.lines == ["\(jsonDirectory)/big.json:1:1: error: the file is larger than 1 MiB"])
    }
}
