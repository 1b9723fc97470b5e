// Starting and stopping the real activity-broker on the private bus, timed from exec to name owned.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Starts `activity-broker` from the bench's own build directory, with XDG directories inside
/// the bench's temporary directory (so the user's manifests and applications stay out).
///
/// Start time is measured by a separate watcher connection subscribed to `NameOwnerChanged`
/// for the broker's name before the spawn: from just before `posix_spawn` to the signal's
/// arrival (it includes the bus's delivery of the signal, a few µs).
final class BrokerLauncher {
    static let name = Broker1.busName.rawValue

    let executable: String
    let address: String
    let scratch: String
    private let watcher: BlockingConnection

    init(address: String, scratch: String) throws {
        executable = try BuiltProducts.executable("activity-broker")
        self.address = address
        self.scratch = scratch
        watcher = try BlockingConnection(address: address)
        try watcher.addMatch(
            MatchRule(
                sender: BusName.bus.rawValue, interface: InterfaceName.bus.rawValue, member: "NameOwnerChanged",
                arg0: Self.name))
    }

    /// The environment the broker runs in.
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_DATA_HOME"] = scratch + "/xdg-data"
        environment["XDG_DATA_DIRS"] = scratch + "/xdg-data-dirs"
        environment["XDG_STATE_HOME"] = scratch + "/xdg-state"
        environment["XDG_CONFIG_HOME"] = scratch + "/xdg-config"
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "LC_ALL")
        environment.removeValue(forKey: "LC_MESSAGES")
        return environment
    }

    /// Spawns the broker on `directories` and waits until it owns its name; returns the process
    /// and the time from spawn to name owned.
    ///
    /// `wrapped`: run it under `BROKER_BENCH_WRAP` when that is set (e.g. `valgrind
    /// --tool=callgrind`), for profiling the measured broker.
    func start(extensionDirectories: [String], wrapped: Bool = false) throws -> (ChildProcess, UInt64) {
        var arguments = ["--bus", address, "--opener", "/bin/true"]
        for directory in extensionDirectories { arguments += ["--extensions-dir", directory] }
        var program = executable
        if wrapped, let wrapper = ProcessInfo.processInfo.environment["BROKER_BENCH_WRAP"], !wrapper.isEmpty {
            let words = wrapper.split(separator: " ").map(String.init)
            program = words[0]
            arguments = Array(words.dropFirst()) + [executable] + arguments
        }
        let start = monotonicNanoseconds()
        let process = try ChildProcess(executable: program, arguments: arguments, environment: environment)
        try waitForOwner(present: true, process: process)
        return (process, monotonicNanoseconds() - start)
    }

    /// Stops the broker (SIGTERM) and waits until it has exited and the bus has dropped its name.
    func stop(_ process: ChildProcess) throws {
        process.terminate()
        _ = try process.waitForExit(deadline: .seconds(30))
        try waitForOwner(present: false, process: nil)
    }

    private func waitForOwner(present: Bool, process: ChildProcess?) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while let message = watcher.next(until: deadline) {
            let strings = message.body.compactMap(\.string)
            guard message.member == "NameOwnerChanged", strings.count == 3 else { continue }
            if strings[2].isEmpty != present { return }
        }
        let output = process.map { "; its log: \($0.standardError.suffix(2000))" } ?? ""
        throw BenchFailure(
            "the broker did not \(present ? "take" : "give up") \(Self.name) within 60 s\(output)")
    }

    /// The resident set size of `pid` in kB (`VmRSS` of /proc/PID/status).
    static func residentKilobytes(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return Double(digits ?? "") ?? 0
        }
        return 0
    }
}
