// The UI services' command line before they start: run, or exit with --version, --help or a bad option.
import ShareSheet
import Testing
import UIServiceSupport

@Suite struct ServiceCommandLineTests {
    @Test func goodArgumentsRun() {
        guard
            case .run(let arguments) = ServiceCommandLine<SheetArguments>.read(
                ["activity-sheet", "--idle-exit", "0"], program: "activity-sheet")
        else {
            Issue.record("expected to run")
            return
        }
        #expect(arguments.idleExit == nil)
    }

    @Test func aBadOptionExits2() {
        guard
            case .exit(let status) = ServiceCommandLine<SheetArguments>.read(
                ["activity-sheet", "--bogus"], program: "activity-sheet")
        else {
            Issue.record("expected to exit")
            return
        }
        #expect(status == 2)
    }

    @Test func versionAndHelpExit0() {
        for flag in ["--version", "--help", "-h"] {
            guard
                case .exit(let status) = ServiceCommandLine<SheetArguments>.read(
                    ["activity-sheet", flag], program: "activity-sheet")
            else {
                Issue.record("expected \(flag) to exit")
                continue
            }
            #expect(status == 0)
        }
    }
}
