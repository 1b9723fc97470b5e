// SmapsDump: a copy of the measured broker's /proc/PID/smaps at each RSS reading, for the per-mapping table of where its memory is.
import Foundation
import TestSupport

/// When `BROKER_BENCH_SMAPS` names a directory, each RSS reading also copies the process's
/// `smaps` there as `NN-PID-KB.smaps` (NN counts the readings of this bench run), so the
/// figure can be broken down by mapping (libraries, heap, arenas, stacks) without guessing:
/// `scripts/smaps-table.py FILE` prints that table.
enum SmapsDump {
    private static let counter = Locked(0)

    /// Copies `/proc/pid/smaps` when asked to; `kilobytes` is the reading it goes with.
    static func save(pid: pid_t, kilobytes: Double) {
        guard let directory = ProcessInfo.processInfo.environment["BROKER_BENCH_SMAPS"], !directory.isEmpty,
            let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")
        else { return }
        // Read to the end: /proc files report a size of 0, so a read by size gets a first chunk only.
        guard let smaps = try? file.readToEnd() else { return }
        try? file.close()
        let index = counter.withLock { value in
            value += 1
            return value
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = String(format: "%@/%02d-%d-%.0f.smaps", directory, index, pid, kilobytes)
        _ = FileManager.default.createFile(atPath: name, contents: smaps)
    }
}
