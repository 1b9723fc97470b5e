// Command-line tools against a test display (xdotool and friends): run them, find a process's window, type keys.
import Foundation

/// The X tools the window tests drive a display with, in one environment (`DISPLAY`, the
/// accessibility bus). Shared by the share-sheet and browser-window fixtures.
public struct DisplayTools: Sendable {
    public struct ToolError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The environment every tool runs in.
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Runs a tool; throws unless it exits 0. Returns its standard output.
    @discardableResult
    public func run(_ executable: String, _ arguments: [String], deadline: Deadline = .seconds(30)) async throws
        -> String
    {
        let run = try await ChildProcess.run(executable, arguments, environment: environment, deadline: deadline)
        guard run.termination == .exited(0) else {
            throw ToolError(
                description:
                    "\(executable) \(arguments.joined(separator: " ")): \(run.termination) \(run.standardError)")
        }
        return run.standardOutput
    }

    /// The visible X windows of `pid`, once one is mapped (`xdotool search --sync`), in xdotool's order.
    public func windows(pid: UInt32) async throws -> [String] {
        let output = try await run("xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(pid)"])
        let ids = output.split(separator: "\n").map(String.init)
        guard !ids.isEmpty else { throw ToolError(description: "no window for \(pid)") }
        return ids
    }

    /// The visible X windows of `pid` now; none is an empty list, not a wait. (xdotool also
    /// fails when a window goes while it searches: that reads as none, so ask again.)
    public func visibleWindows(pid: UInt32) async throws -> [String] {
        let run = try await ChildProcess.run(
            "xdotool", ["search", "--onlyvisible", "--pid", "\(pid)"], environment: environment)
        guard run.termination == .exited(0) else { return [] }
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Whether `pid` has a visible window now.
    public func hasVisibleWindow(pid: UInt32) async throws -> Bool {
        let run = try await ChildProcess.run(
            "xdotool", ["search", "--onlyvisible", "--pid", "\(pid)"], environment: environment)
        return run.termination == .exited(0) && !run.standardOutput.isEmpty
    }

    /// Focuses `window` and types `keys` (xdotool key names), `delay` milliseconds apart.
    public func press(_ keys: [String], window: String, delay: Int) async throws {
        try await run("xdotool", ["windowfocus", "--sync", window, "key", "--delay", "\(delay)"] + keys)
    }
}
