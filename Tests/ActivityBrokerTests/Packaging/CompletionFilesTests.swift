// completions/ holds what `share --completions bash|zsh` prints (`make completions` regenerates them).
import Foundation
import TestSupport
import Testing

@Suite("Shell completion files")
struct CompletionFilesTests {
    @Test(
        "the committed files match the built share's output",
        arguments: [
            ("bash", "share.bash"), ("zsh", "_share"),
        ])
    func filesMatchShare(shell: String, file: String) async throws {
        let run = try await runCommand(try BuiltProducts.executable("share"), ["--completions", shell])
        #expect(run.succeeded, "\(run.transcript)")
        let committed = try String(contentsOfFile: repositoryRoot + "/completions/" + file, encoding: .utf8)
        #expect(!committed.isEmpty)
        #expect(
            committed == run.standardOutput,
            "completions/\(file) is stale: run 'make completions BUILD_DIR=.build/debug'")
    }
}
