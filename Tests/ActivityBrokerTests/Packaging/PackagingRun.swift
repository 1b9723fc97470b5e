// Running a command of the repository (make, python3, a script) for the packaging tests.
import Foundation
import TestSupport

/// A finished command: its status and both outputs.
struct CommandResult {
    let termination: ChildProcess.Termination
    let standardOutput: String
    let standardError: String

    var succeeded: Bool { termination == .exited(0) }
    /// Both outputs, for failure messages.
    var transcript: String { "status \(termination)\nstdout:\n\(standardOutput)\nstderr:\n\(standardError)" }
}

/// Runs `executable` with `arguments` in `directory` (default: the repository) to completion.
func runCommand(
    _ executable: String, _ arguments: [String], in directory: String = repositoryRoot,
    environment: [String: String]? = nil, deadline: Deadline = .seconds(60)
) async throws -> CommandResult {
    let child = try ChildProcess(
        executable: executable, arguments: arguments, environment: environment, workingDirectory: directory)
    do {
        let termination = try await child.exit(deadline: deadline)
        return CommandResult(
            termination: termination, standardOutput: child.standardOutput, standardError: child.standardError
        )
    } catch {
        child.kill()
        throw error
    }
}
