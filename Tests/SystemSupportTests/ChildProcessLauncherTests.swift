// Real child processes through ChildProcessLauncher: argv, stdin, environment, exits, signals, groups.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct ChildProcessLauncherTests {
    let queue = DispatchQueue(label: "ChildProcessLauncherTests")

    /// Spawns and waits for the completion; fails the test when it does not come.
    func run(
        _ arguments: [String], options: SpawnOptions = SpawnOptions(),
        launcher: ChildProcessLauncher? = nil
    ) throws -> ProcessTermination? {
        let done = Awaited<ProcessTermination>()
        _ = try (launcher ?? ChildProcessLauncher(queue: queue)).spawn(arguments, options: options) {
            done.set($0)
        }
        return done.wait()
    }

    @Test func argumentsArriveWholeAndArgv0IsFoundOnPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("argv")
        let arguments = ["a b", "c;d", "$HOME", "'q'", "{url}", "", "https://example.org/?a=1&b=2"]
        let result = try run(
            ["sh", "-c", "out=$1; shift; printf '%s\\n' \"$@\" > \"$out\"", "sh", output] + arguments)
        #expect(result?.exit == .exited(0))
        #expect(contents(of: output) == arguments.map { $0 + "\n" }.joined())
    }

    @Test func standardInputLargerThanAPipeBufferArrives() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("stdin")
        let text = String(repeating: "https://example.org/ä\n", count: 20_000)  // ~460 KB
        let result = try run(
            ["/bin/sh", "-c", "cat > \"$1\"", "sh", output], options: SpawnOptions(standardInput: text))
        #expect(result?.exit == .exited(0))
        #expect(contents(of: output) == text)
    }

    @Test func childThatIgnoresStandardInputIsNotAnError() throws {
        let text = String(repeating: "x", count: 1 << 20)
        let result = try run(["/bin/sh", "-c", "exit 0"], options: SpawnOptions(standardInput: text))
        #expect(result?.exit == .exited(0))
    }

    @Test func extraEnvironmentVariableIsPassedOnTopOfTheBase() throws {
        let launcher = ChildProcessLauncher(
            queue: queue, environment: ["PATH": "/usr/bin:/bin", "KEEP": "kept"])
        let result = try run(
            ["sh", "-c", "printf '%s|%s' \"$XDG_ACTIVATION_TOKEN\" \"$KEEP\""],
            options: SpawnOptions(
                environment: ["XDG_ACTIVATION_TOKEN": "token 1"], captureStandardOutput: true),
            launcher: launcher)
        #expect(result?.exit == .exited(0))
        #expect(result?.standardOutput == Array("token 1|kept".utf8))
    }

    @Test func exitCodeIsReportedExactlyOnce() throws {
        let done = Awaited<ProcessTermination>()
        _ = try ChildProcessLauncher(queue: queue).spawn(["/bin/sh", "-c", "exit 7"]) { done.set($0) }
        #expect(done.wait()?.exit == .exited(7))
        queue.sync {}  // anything else queued by the process has run by now
        #expect(done.all.count == 1)
    }

    @Test func deathBySignalIsReported() throws {
        let result = try run(["/bin/sh", "-c", "kill -USR1 $$"])
        #expect(result?.exit == .signaled(SIGUSR1))
    }

    @Test func outputIsCapturedOnlyWhenAsked() throws {
        let captured = try run(
            ["/bin/sh", "-c", "echo out; echo err >&2"],
            options: SpawnOptions(captureStandardOutput: true, captureStandardError: true))
        #expect(captured?.standardOutput == Array("out\n".utf8))
        #expect(captured?.standardError == Array("err\n".utf8))
        let discarded = try run(["/bin/sh", "-c", "echo out"])
        #expect(discarded?.standardOutput == nil)
        #expect(discarded?.exit == .exited(0))
    }

    @Test func missingProgramIsATypedErrorWithItsName() throws {
        let launcher = ChildProcessLauncher(queue: queue)
        #expect(throws: SpawnError.notFound(program: "no-such-program-ab12")) {
            _ = try launcher.spawn(["no-such-program-ab12"]) { _ in }
        }
        #expect(throws: SpawnError.notFound(program: "/nonexistent/tool")) {
            _ = try launcher.spawn(["/nonexistent/tool"]) { _ in }
        }
    }

    @Test func nonExecutableFileIsPermissionDenied() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = directory.file("script")
        #expect(FileManager.default.createFile(atPath: script, contents: Data("#!/bin/sh\n".utf8)))
        #expect(throws: SpawnError.permissionDenied(program: script)) {
            _ = try ChildProcessLauncher(queue: queue).spawn([script]) { _ in }
        }
    }

    @Test func terminateEndsAChildWithSIGTERMEvenIfTheCallerBlocksIt() throws {
        // Swift Testing's threads block SIGTERM; the child must still get default handling.
        let done = Awaited<ProcessTermination>()
        let process = try ChildProcessLauncher(queue: queue).spawn(["sleep", "1000"]) { done.set($0) }
        defer { process.terminate(grace: 0) }  // never leave a child behind, even on failure
        process.terminate(grace: 30)
        #expect(done.wait()?.exit == .signaled(SIGTERM))
    }

    /// Spawns `sh -c script` with `$1` naming a file in a fresh temporary directory, runs
    /// `body` with that file, the process and its completion, and kills the child afterwards
    /// (never leave one behind, even on failure).
    func withShell(
        _ script: String, file name: String,
        _ body: (_ file: String, _ process: SpawnedProcess, _ done: Awaited<ProcessTermination>) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file(name)
        let done = Awaited<ProcessTermination>()
        let process = try ChildProcessLauncher(queue: queue).spawn(["/bin/sh", "-c", script, "sh", file]) {
            done.set($0)
        }
        defer { process.terminate(grace: 0) }
        try body(file, process, done)
    }

    @Test func terminateKillsAChildThatIgnoresSIGTERMAfterTheGrace() throws {
        try withShell("trap '' TERM; echo ready > \"$1\"; exec sleep 1000", file: "ready") { ready, process, done in
            #expect(eventually { contents(of: ready) == "ready\n" })
            process.terminate(grace: 0.2)
            #expect(done.wait()?.exit == .signaled(SIGKILL))
        }
    }

    @Test func terminateKillsTheWholeProcessGroup() throws {
        try withShell("sleep 1000 & echo $! > \"$1\"; wait", file: "grandchild") { pidFile, process, done in
            var grandchild: pid_t = 0
            #expect(eventually {
                grandchild =
                    contents(of: pidFile).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
                return grandchild > 0
            })
            #expect(!processIsGone(grandchild))
            process.terminate(grace: 30)
            #expect(done.wait() != nil)
            #expect(eventually { processIsGone(grandchild) })
        }
    }

    @Test func signalReaperFallbackReportsTheExit() throws {
        var launcher = ChildProcessLauncher(queue: queue)
        launcher.exitWatch = .signalReaper
        let result = try run(["/bin/sh", "-c", "exit 3"], launcher: launcher)
        #expect(result?.exit == .exited(3))
    }

    @Test func childInheritsNoStrayDescriptors() throws {
        // A descriptor opened without O_CLOEXEC, as careless code elsewhere in the process might.
        // Numbered high so it cannot be confused with the descriptor the shell opens for its glob.
        let opened = open("/dev/null", O_RDONLY)
        let leaked = fcntl(opened, F_DUPFD, 300)  // F_DUPFD leaves FD_CLOEXEC clear
        close(opened)
        defer { close(leaked) }
        #expect(leaked >= 300)
        let result = try run(
            ["/bin/sh", "-c", "for f in /proc/$$/fd/*; do echo \"${f##*/}\"; done"],
            options: SpawnOptions(captureStandardOutput: true))
        let fds = result?.standardOutput.flatMap { String(validating: $0, as: UTF8.self) }?
            .split(separator: "\n").map(String.init) ?? []
        #expect(fds.contains("0") && fds.contains("1") && fds.contains("2"))
        #expect(!fds.contains(String(leaked)))
    }

    @Test func childLeadsItsOwnProcessGroupOrSession() throws {
        // Fields 5 and 6 of /proc/<pid>/stat are the process group and the session.
        let script = "cut -d' ' -f5,6 /proc/$$/stat"
        let groupDone = Awaited<ProcessTermination>()
        let grouped = try ChildProcessLauncher(queue: queue).spawn(
            ["/bin/sh", "-c", script], options: SpawnOptions(captureStandardOutput: true)) { groupDone.set($0) }
        let groupIDs = groupDone.wait()?.standardOutput.flatMap { String(validating: $0, as: UTF8.self) }?
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) ?? []
        #expect(groupIDs.first == String(grouped.pid))
        #expect(groupIDs.last != String(grouped.pid))

        let sessionDone = Awaited<ProcessTermination>()
        let led = try ChildProcessLauncher(queue: queue).spawn(
            ["/bin/sh", "-c", script], options: SpawnOptions(captureStandardOutput: true, newSession: true)
        ) { sessionDone.set($0) }
        let sessionIDs = sessionDone.wait()?.standardOutput.flatMap { String(validating: $0, as: UTF8.self) }?
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) ?? []
        #expect(sessionIDs == [String(led.pid), String(led.pid)])
    }

    @Test func detachedChildLeadsItsSessionAndIsReapedWheneverItEnds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ready = directory.file("ready")
        let pid = try ChildProcessLauncher(queue: queue).spawnDetached(
            ["/bin/sh", "-c", "echo ready > \"$1\"; exec sleep 1000", "sh", ready])
        defer { kill(pid, SIGKILL) }
        #expect(eventually { contents(of: ready) == "ready\n" })
        #expect(getsid(pid) == pid && getpgid(pid) == pid)
        #expect(!processIsGone(pid))
        // Killed by someone else long after the launch: reaped all the same, no zombie left.
        kill(pid, SIGKILL)
        #expect(eventually { processState(pid) == nil })
    }

    @Test func programInstalledAfterACachedMissIsFound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let locator = ExecutableLocator()
        let launcher = ChildProcessLauncher(
            queue: queue, locator: locator, environment: ["PATH": directory.path + ":/usr/bin:/bin"])
        #expect(locator.find("late-tool", path: directory.path + ":/usr/bin:/bin") == nil)
        #expect(FileManager.default.createFile(
            atPath: directory.file("late-tool"), contents: Data("#!/bin/sh\nexit 4\n".utf8)))
        #expect(chmod(directory.file("late-tool"), 0o755) == 0)
        let result = try run(["late-tool"], launcher: launcher)
        #expect(result?.exit == .exited(4))
    }
}
