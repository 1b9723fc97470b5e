// The test helpers themselves: ChildProcess, TestBus lifetime, Inbox, BuiltProducts.
import DBus
import Foundation
import Testing
import TestSupport

@Suite struct TestSupportTests {
    @Test func childOutputAndExitCodeAreCaptured() async throws {
        let run = try await ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(run.termination == .exited(3))
        #expect(run.standardOutput == "out\n")
        #expect(run.standardError == "err\n")
    }

    /// Swift Testing's workers block SIGTERM; the child must not inherit that.
    @Test func terminateReachesTheChildDespiteTheTestsSignalMask() async throws {
        let child = try ChildProcess(executable: "sleep", arguments: ["600"])
        child.terminate()
        #expect(try await child.exit() == .signaled(SIGTERM))
    }

    @Test func linesAndStandardInput() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo ready; while read -r line; do echo \"got $line\"; done"],
            standardInput: .pipe)
        _ = try await child.nextLine { $0 == "ready" }
        try child.write("one\ntwo\n")
        let line = try await offPool { try child.waitForLine(deadline: .seconds(10)) { $0 == "got two" } }
        #expect(line == "got two")
        child.closeStandardInput()
        #expect(try await offPool { try child.waitForExit() } == .exited(0))
        #expect(child.standardOutputLines == ["ready", "got one", "got two"])
    }

    /// Lines are split once as they arrive: a line cut across writes is one line, and the last
    /// partial line counts only once the stream has ended.
    @Test func linesCutAcrossWritesAndAFinalPartialLine() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh",
            arguments: ["-c", "printf 'fir'; read -r _; printf 'st\\nsecond\\nthi'; read -r _; printf 'rd'"],
            standardInput: .pipe)
        try child.write("go\n")
        _ = try await child.nextLine { $0 == "second" }
        #expect(child.standardOutputLines == ["first", "second"])
        try child.write("go\n")
        #expect(try await child.exit() == .exited(0))
        #expect(child.standardOutputLines == ["first", "second", "third"])
        #expect(try await child.nextLine { $0 == "third" } == "third")
        #expect(child.standardOutput == "first\nsecond\nthird")
    }

    @Test func waitingForALineThatNeverComesTimesOut() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo nothing useful"])
        #expect(throws: TimeoutError.self) { _ = try child.waitForLine(deadline: .seconds(5)) { $0 == "never" } }
        child.kill()
    }

    @Test func extraDescriptorsAndEnvironmentReachTheChild() async throws {
        let run = try await ChildProcess.run("/bin/sh", ["-c", "echo \"$GREETING\""], environment: ["GREETING": "hi there"])
        #expect(run.standardOutput == "hi there\n")
        await #expect(throws: ChildProcess.SpawnError.self) { _ = try await ChildProcess.run("/nonexistent/tool") }
    }

    @Test func testBusStopReapsTheDaemon() throws {
        let bus = try TestBus()
        #expect(bus.address.hasPrefix("unix:path=\(bus.directory)/bus"))
        #expect(bus.daemonPID > 0)
        #expect(kill(bus.daemonPID, 0) == 0)
        let connection = try bus.connect()
        connection.close()
        bus.stop()
        #expect(kill(bus.daemonPID, 0) != 0)
        #expect(!FileManager.default.fileExists(atPath: bus.directory))
        bus.stop()
    }

    /// When the test process dies the kernel closes its end of the guard pipe; doing just that
    /// (no signal, no wait) must bring the daemon down.
    @Test func daemonDiesWhenTheGuardPipeCloses() async throws {
        let bus = try await TestBus.start()
        let pid = bus.daemonPID
        #expect(kill(pid, 0) == 0)
        bus.closeGuardPipe()
        try await waitUntil("the daemon to exit") { kill(pid, 0) != 0 }
        try await waitUntil("the directory to go") {
            !FileManager.default.fileExists(atPath: bus.directory)
        }
        await bus.stopOffPool()
    }

    @Test func inboxHandsOutItemsInOrderAndTimesOut() async throws {
        let inbox = Inbox<Int>()
        DispatchQueue.global().async { inbox.put(1); inbox.put(2) }
        #expect(try await inbox.next() == 1)
        #expect(try await inbox.next() == 2)
        await #expect(throws: TimeoutError.self) { _ = try await inbox.next(deadline: .after(.milliseconds(50))) }
        #expect(inbox.items == [1, 2])
    }

    @Test func builtProductsPointAtTheBuildDirectory() throws {
        #expect(FileManager.default.fileExists(atPath: BuiltProducts.directory.path))
        #expect(throws: MissingFileError.self) { _ = try BuiltProducts.executable("no-such-tool") }
    }
}
