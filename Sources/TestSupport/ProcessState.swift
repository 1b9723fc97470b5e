// Whether a process (a grandchild, a broker's activity) still runs, from /proc.
import Foundation
import Glibc

/// Whether `pid` is gone or a zombie (a zombie left to a non-reaping parent still answers kill(0)).
public func processIsGone(_ pid: pid_t) -> Bool {
    guard let state = processState(pid) else { return true }
    return state == "Z" || state == "X"
}

/// The state letter of `pid` in /proc/PID/stat (`R`, `S`, `T`, `Z`, …); nil when it does not exist.
public func processState(_ pid: pid_t) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
    // Format: "pid (comm) S …"; comm may hold spaces or parentheses, so read after the last ')'.
    guard let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
}
