// The UI services' command line from argv to a decision: run with the arguments, or exit (--version, --help, a bad option).
import ActivityBrokerInterface
import Foundation

/// What a UI service's arguments type provides for `ServiceCommandLine`.
public protocol ServiceCommandArguments: Sendable {
    /// The usage text printed with `--help` and after a bad option.
    static var usage: String { get }
    /// Parses the arguments after the program name.
    init(_ arguments: [String]) throws(ServiceUsageError)
}

/// What `activity-sheet` and `activity-browser` do with their argv before they start: one
/// place for `--version`, `--help` and the exit status of a bad command line. It prints; the
/// executable's `main` exits (library code never calls `exit`).
public enum ServiceCommandLine<Arguments: ServiceCommandArguments> {
    /// Run the service with these arguments.
    case run(Arguments)
    /// Exit with this status: 0 after `--version` or `--help`, 2 after a bad command line.
    case exit(Int32)

    /// Reads `argv` (the program name first) of `program`.
    public static func read(_ argv: [String] = CommandLine.arguments, program: String) -> Self {
        if argv.dropFirst().first == "--version" {
            print(ProjectVersion.line(program: program))
            return .exit(0)
        }
        do {
            return .run(try Arguments(Array(argv.dropFirst())))
        } catch {
            if argv.contains("--help") || argv.contains("-h") {
                print(Arguments.usage)
                return .exit(0)
            }
            FileHandle.standardError.write(Data("\(program): \(error)\n\(Arguments.usage)\n".utf8))
            return .exit(2)
        }
    }
}
