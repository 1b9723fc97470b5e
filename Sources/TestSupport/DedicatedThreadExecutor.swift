// A task executor with a thread of its own, for `offPool`.
import Foundation

/// Runs the jobs enqueued on it, in order, on a `Thread` it starts for them (named `offPool`,
/// for gdb), which ends once `finish()` was called and no job is left. A job enqueued after
/// that starts a new thread, so none is ever lost.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs`, `draining` and `finished` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var draining = false
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !draining
        draining = true
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { self.drain() }
            thread.name = "offPool"
            thread.start()
        }
    }

    /// No more work is expected: the thread ends when the queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func drain() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
            } else if finished {
                draining = false
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }
}
