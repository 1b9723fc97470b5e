// The bench's brokers: TestSupport's BrokerHarness, driven from the bench's blocking code and timed.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Starts `activity-broker` from the bench's own build directory through `BrokerHarness`
/// (XDG directories in the harness's tree, so the user's manifests and applications stay
/// out; `/bin/true` as the opener, so an `open` activity costs only a spawn).
///
/// Start time is the harness's: from just before the spawn to the arrival of the
/// `NameOwnerChanged` showing the new process owning the broker's name (it includes the
/// bus's delivery of the signal, a few µs).
final class BrokerLauncher {
    static let name = Broker1.busName.rawValue

    let harness: BrokerHarness
    var executable: String { (try? BuiltProducts.executable("activity-broker")) ?? "activity-broker" }

    init(bus: TestBus) throws {
        harness = try blocking {
            try await BrokerHarness(bus: bus, extensionDirectories: [], opener: { _ in "/bin/true" }, start: false)
        }
    }

    /// Spawns the broker on `directories` and waits until it owns its name; returns the process
    /// and the time from spawn to name owned.
    ///
    /// `wrapped`: run it under `BROKER_BENCH_WRAP` when that is set (e.g. `valgrind
    /// --tool=callgrind`), for profiling the measured broker.
    func start(extensionDirectories: [String], wrapped: Bool = false) throws -> (ChildProcess, UInt64) {
        let arguments = extensionDirectories.flatMap { ["--extensions-dir", $0] }
        var wrapper: [String] = []
        if wrapped, let words = ProcessInfo.processInfo.environment["BROKER_BENCH_WRAP"], !words.isEmpty {
            wrapper = words.split(separator: " ").map(String.init)
        }
        let harness = harness
        let command = wrapper
        let process = try blocking {
            try await harness.start(arguments: arguments, wrapper: command, deadline: .seconds(60))
        }
        let time = harness.lastStartTime.components
        return (process, UInt64(time.seconds) * 1_000_000_000 + UInt64(time.attoseconds / 1_000_000_000))
    }

    /// Stops the broker (SIGTERM) and waits until it has exited and the bus has dropped its name.
    func stop(_ process: ChildProcess) throws {
        process.terminate()
        _ = try process.waitForExit(deadline: .seconds(30))
        let harness = harness
        try blocking { try await harness.waitForBrokerName(present: false, deadline: .seconds(60)) }
    }

    /// The resident set size of `pid` in kB (`VmRSS` of /proc/PID/status).
    static func residentKilobytes(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            let kilobytes = Double(digits ?? "") ?? 0
            SmapsDump.save(pid: pid, kilobytes: kilobytes)
            return kilobytes
        }
        return 0
    }
}

/// Runs `operation` on the concurrency pool and blocks this (non-pool) thread until it ends:
/// the bench is sequential, blocking code; the harness is async.
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            result.value = .success(try await operation())
        } catch {
            result.value = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try result.value!.get()
}
