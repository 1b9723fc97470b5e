// How a SpawnedProcess ends: SIGKILL escalation past the leader, signals at once on the queue, the child alone, bounded reads, a missing working directory.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct ProcessEndingTests {
    let queue = DispatchQueue(label: "ProcessEndingTests")

    /// Spawns `sh -c script` with `$1` naming a file in a fresh temporary directory into which
    /// the script writes a descendant's pid; runs `body` with that pid, the process and its
    /// completion; kills both afterwards (never leave one behind, even on failure).
    func withDescendant(
        _ script: String, options: SpawnOptions = SpawnOptions(),
        _ body: (_ descendant: pid_t, _ process: SpawnedProcess, _ done: Awaited<ProcessTermination>) throws
            -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("pid")
        let done = Awaited<ProcessTermination>()
        let process = try ChildProcessLauncher(queue: queue).spawn(
            ["/bin/sh", "-c", script, "sh", file], options: options
        ) { done.set($0) }
        defer { process.terminate(grace: 0) }
        var descendant: pid_t = 0
        #expect(
            eventually {
                descendant =
                    contents(of: file).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    ?? 0
                return descendant > 0
            })
        try #require(descendant > 0)
        defer { kill(descendant, SIGKILL) }
        try body(descendant, process, done)
    }

    /// The leader dies of SIGTERM at once; the member that ignores it used to run on for good,
    /// because the leader's exit cancelled the SIGKILL escalation.
    @Test func groupMemberIgnoringSIGTERMIsKilledAfterTheLeaderDiedOfIt() throws {
        try withDescendant("(trap '' TERM; exec sleep 1000) & echo $! > \"$1\"; wait") {
            member, process, done in
            process.terminate(grace: 0.3)
            #expect(done.wait()?.exit == .signaled(SIGTERM))
            #expect(eventually { processIsGone(member) })
        }
    }

    /// A daemon calls `terminate` on its loop and exits right after: a signal queued behind
    /// that turn would never be sent.
    @Test func terminateOnTheQueueSignalsBeforeItReturns() throws {
        let done = Awaited<ProcessTermination>()
        let process = try ChildProcessLauncher(queue: queue).spawn(["sleep", "1000"]) { done.set($0) }
        defer {
            queue.resume()
            process.terminate(grace: 0)
        }
        // The queue stays suspended after this turn: only a signal sent within it arrives.
        queue.sync {
            process.terminate(grace: 30)
            queue.suspend()
        }
        #expect(eventually { processIsGone(process.pid) })
    }

    /// An opener's target: its end is its own, the browser it runs in the foreground lives on.
    @Test func processTargetEndsTheChildAloneNotItsGroup() throws {
        try withDescendant(
            "sleep 1000 & echo $! > \"$1\"; wait", options: SpawnOptions(terminationTarget: .process)
        ) { descendant, process, done in
            process.terminate(grace: 0.2)
            #expect(done.wait()?.exit == .signaled(SIGTERM))
            #expect(!processIsGone(descendant))
            #expect(getpgid(descendant) == process.pid)  // still in the group that was spared
        }
    }

    /// A child writing stderr as fast as it is read kept the queue in one read handler.
    @Test func endlessOutputLeavesTheQueueFreeForOtherWork() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let started = directory.file("started")
        let done = Awaited<ProcessTermination>()
        let process = try ChildProcessLauncher(queue: queue).spawn(
            // The marker comes once the reader took most of a megabyte: output is flowing then.
            [
                "/bin/sh", "-c",
                "head -c 1000000 /dev/zero >&2; echo > \"$1\"; exec yes 'output without end' >&2",
                "sh", started,
            ],
            options: SpawnOptions(captureStandardError: true, captureLimit: 1024, captureWindow: .tail)
        ) { done.set($0) }
        defer { process.terminate(grace: 0) }
        #expect(eventually { FileManager.default.fileExists(atPath: started) })
        for _ in 0..<50 {
            let turn = Awaited<Bool>()
            queue.async { turn.set(true) }
            #expect(turn.wait(timeout: 5) == true)
        }
        process.terminate(grace: 0)
        let termination = done.wait()
        #expect(termination?.exit == .signaled(SIGKILL))
        #expect(termination?.standardError?.isEmpty == false)
    }

    /// A missing `Path=` directory was reported as the program not found.
    @Test func missingWorkingDirectoryIsNamedNotTheProgram() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("no-such-directory")
        #expect(throws: SpawnError.failed(program: "true", operation: "chdir to \(missing)", code: ENOENT)) {
            _ = try ChildProcessLauncher(queue: queue).spawn(
                ["true"], options: SpawnOptions(workingDirectory: missing)
            ) { _ in }
        }
        let file = directory.file("a-file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: SpawnError.failed(program: "true", operation: "chdir to \(file)", code: ENOTDIR)) {
            _ = try ChildProcessLauncher(queue: queue).spawn(
                ["true"], options: SpawnOptions(workingDirectory: file)
            ) {
                _ in
            }
        }
    }
}
