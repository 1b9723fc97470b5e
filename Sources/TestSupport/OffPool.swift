// Running a test's blocking or CPU-heavy work on a thread of its own, never on a concurrency-pool thread.

/// Runs `body` on a new thread (`DedicatedThreadExecutor`) as part of the calling task, and
/// returns its result; the caller suspends meanwhile and resumes on the pool.
///
/// Why: `swift test` runs every test of the package at once in one process, and Swift
/// concurrency's global pool has one thread per core (two on CI). A test that blocks a pool
/// thread — waiting for a child's line or exit, for dbus-daemon to print its address, or
/// grinding through a fuzz loop — holds it from every async test beside it: their tasks wait
/// seconds just to resume, and their deadlines fail. The blocking part belongs on a thread of
/// its own; not on a Dispatch global queue either, whose threads the pool's work shares.
///
/// `body` runs inside the calling task (a task executor preference, not a detached thread),
/// so task-locals hold: `#expect` and `Issue.record` in it are the calling test's.
public func offPool<T>(_ body: () throws -> T) async rethrows -> T {
    let executor = DedicatedThreadExecutor()
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try body() }
}
