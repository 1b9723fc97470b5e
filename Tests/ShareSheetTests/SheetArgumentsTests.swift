// activity-sheet's command line.
import Testing

@testable import ShareSheet

@Suite struct SheetArgumentsTests {
    @Test func defaultsServeTheSessionBusAndExitWhenIdle() throws {
        let arguments = try SheetArguments([])
        #expect(arguments.bus == "session")
        #expect(arguments.idleExit == .seconds(60))
    }

    @Test func busAndIdleExitAreRead() throws {
        let arguments = try SheetArguments(["--bus", "unix:path=/tmp/x", "--idle-exit", "0"])
        #expect(arguments.bus == "unix:path=/tmp/x")
        #expect(arguments.idleExit == nil)
    }

    @Test(arguments: [["--bus"], ["--idle-exit", "-1"], ["--idle-exit", "soon"], ["--frobnicate"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) {
        #expect(throws: SheetArguments.UsageError.self) { try SheetArguments(arguments) }
    }
}
