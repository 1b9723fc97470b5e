// Helpers for the System tests: temporary directories and waiting on events with a deadline.
import Foundation
import Glibc

/// A fresh directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/activity-broker-test.XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let created else { throw POSIXError(.EIO) }
        path = String(cString: created)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A value set once from another thread, awaited with a deadline.
final class Awaited<Value: Sendable>: @unchecked Sendable {
    // Invariant: `values` is only touched with `lock` held.
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var values: [Value] = []

    func set(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
        semaphore.signal()
    }

    /// Waits for the first value; nil after `timeout` seconds.
    func wait(timeout: TimeInterval = 10) -> Value? {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return values.first
    }

    /// Every value set so far.
    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass; returns whether it held.
func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// The contents of a file as a string, or nil.
func contents(of path: String) -> String? {
    FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
}

/// Whether `pid` is gone or a zombie (a zombie left to a non-reaping init still answers kill(0)).
func processIsGone(_ pid: pid_t) -> Bool {
    guard let stat = contents(of: "/proc/\(pid)/stat") else { return true }
    // Format: "pid (comm) S …"; comm may hold spaces or parentheses, so read after the last ')'.
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
}
