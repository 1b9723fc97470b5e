// The broker's log lines gathered for a few milliseconds and written together, in order, with one write.
import Foundation

/// A `BrokerLog` sink that keeps lines and writes them in one `write` at most `delay` after the
/// first of them, and at once on `flush()` (the broker calls it before it stops).
///
/// Why: each write to the journal's stream (a pipe or socket) wakes its reader, which on a
/// busy machine takes a CPU from the broker at the moment it is serving: measured with the
/// bench, the two lines of each `Perform` ("started", "completed") cost the broker more CPU and
/// context switches than the rest of the job's work. Gathered, a stream of jobs costs one write
/// per `delay`. One sink for the whole broker keeps every line in the order it was logged.
/// A crash loses at most the last `delay` of lines.
///
/// Any thread: `lock` guards `pending` and is held across the write, so that two flushes cannot
/// write their lines out of order.
final class CoalescedLogSink: @unchecked Sendable {
    static let delay: DispatchTimeInterval = .milliseconds(20)
    /// Pending text beyond which a line is written at once rather than kept.
    static let limit = 64 * 1024

    private let lock = NSLock()
    private var pending = ""
    private let write: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "activity-broker.log")

    init(write: @escaping @Sendable (String) -> Void = BrokerLog.standardError) {
        self.write = write
    }

    /// The sink to give `BrokerLog`.
    var sink: @Sendable (String) -> Void { { [self] line in add(line) } }

    private func add(_ line: String) {
        lock.lock()
        let first = pending.isEmpty
        pending += line
        let full = pending.utf8.count >= Self.limit
        lock.unlock()
        if full {
            flush()
        } else if first {
            queue.asyncAfter(deadline: .now() + Self.delay) { [self] in flush() }
        }
    }

    /// Writes the pending lines now.
    func flush() {
        lock.lock()
        defer { lock.unlock() }
        guard !pending.isEmpty else { return }
        write(pending)
        pending = ""
    }
}
