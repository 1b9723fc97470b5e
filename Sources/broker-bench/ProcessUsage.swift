// CPU time and wake-ups of a process's threads, read from /proc, for the hot paths' per-call costs.
import Foundation

/// What a set of threads has used so far: CPU time and how often they slept and were woken.
///
/// Why wake-ups: on two busy cores a call's latency is close to the CPU spent on it, and much
/// of that is the price of each wake-up (a context switch in, the event loop's own hand-offs).
/// Counting them per call says whether a change removed work or only moved it between loops.
struct ProcessUsage {
    /// Scheduler nanoseconds on a CPU (`/proc/…/schedstat`, first field).
    var cpuNanoseconds: UInt64 = 0
    /// Voluntary context switches (`voluntary_ctxt_switches` of `/proc/…/status`): each one a
    /// thread that blocked (in poll, epoll, a futex) and was woken again.
    var wakes: UInt64 = 0

    /// Which of a process's threads to count.
    enum Threads {
        /// Every thread, and every thread of its children (a `BROKER_BENCH_WRAP` wrapper's broker).
        case all
        /// Only the main thread (tid = pid): the bench's blocking client.
        case main
        /// Every thread but the main one: the bench's provider, served by its connection's loop.
        case others
    }

    /// The usage of `pid`'s `threads` now.
    static func read(_ pid: pid_t, _ threads: Threads = .all) -> ProcessUsage {
        var usage = ProcessUsage()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            switch threads {
            case .all: break
            case .main where task != "\(pid)": continue
            case .others where task == "\(pid)": continue
            default: break
            }
            let directory = "/proc/\(pid)/task/\(task)"
            let stat = (try? String(contentsOfFile: directory + "/schedstat", encoding: .utf8)) ?? ""
            usage.cpuNanoseconds += UInt64(stat.split(separator: " ").first ?? "") ?? 0
            let status = (try? String(contentsOfFile: directory + "/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
                usage.wakes += UInt64(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            guard threads == .all else { continue }
            let children = (try? String(contentsOfFile: directory + "/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ") {
                let inner = read(pid_t(child) ?? 0)
                usage.cpuNanoseconds += inner.cpuNanoseconds
                usage.wakes += inner.wakes
            }
        }
        return usage
    }

    /// The usage per call between `before` and `self`, in µs of CPU and wake-ups; a figure that
    /// went down (a thread exited between the two reads) counts 0.
    func perCall(since before: ProcessUsage, calls: Int) -> (cpuMicroseconds: Double, wakes: Double) {
        let cpu = cpuNanoseconds > before.cpuNanoseconds ? cpuNanoseconds - before.cpuNanoseconds : 0
        let wakes = self.wakes > before.wakes ? self.wakes - before.wakes : 0
        return (Double(cpu) / Double(calls) / 1000, Double(wakes) / Double(calls))
    }
}
