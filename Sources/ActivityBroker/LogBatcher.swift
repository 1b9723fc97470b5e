// The broker's standard error: per-job lines gathered for a few milliseconds and written in one write(2) off the loop; other lines at once.
import Dispatch
import Glibc
import Locking

/// The broker's standard error: lines written at once, and frequent lines written in batches.
///
/// Why: each job logs two lines (started, ended). One write(2) per line was a system call on the
/// loop and a wake-up of whatever reads the other end (a journal, a pipe) for every `Perform`:
/// 5 % of the broker's samples per job in a profile, the largest item of its per-job work. Here
/// such a line (`append`) costs the caller a lock and a copy; the first of a batch schedules one
/// write `delay` later on a global queue, which takes every line gathered by then. Every other
/// line (`write`) is written at once, as before, after what waits: lines logged through
/// `BrokerLog` keep the order in which they were logged. (The DBus module's own few lines go
/// straight to standard error and may come before batched lines logged earlier.)
///
/// Nothing is lost on an exit that completes: `flush()` writes what waits, and the shared
/// instance flushes from `atexit` (every `exit` of the broker's main). A crash, or a shutdown
/// whose loop did not answer in time and logged after the flush, loses at most `delay` of
/// batched lines. One writer at a time, and whole lines per write(2) (`pieces`), so lines
/// never interleave or tear.
///
/// Bounded: once `maximumPendingBytes` wait (standard error blocked, a reader that stopped), the
/// line that crosses it is written by its caller at once, which then waits as an unbatched
/// write(2) would: a stream of jobs cannot grow the broker's memory behind a stuck log.
final class LogBatcher: Sendable {
    /// The broker's standard error.
    static let standardError: LogBatcher = {
        let batcher = LogBatcher(descriptor: 2)
        atexit { LogBatcher.standardError.flush() }
        return batcher
    }()

    /// How long the first batched line waits for others: short enough that a person reading the
    /// log sees it at once, long enough that a stream of jobs writes once.
    static let delay: DispatchTimeInterval = .milliseconds(5)

    /// Bytes of batched lines that may wait: a 5 ms batch of a few hundred jobs' lines.
    static let maximumPendingBytes = 16 << 10

    private struct Pending {
        var bytes: [UInt8] = []
        var scheduled = false
    }

    private let descriptor: Int32
    private let batchDelay: DispatchTimeInterval
    private let pending = Locked(Pending())
    /// Held while writing, so that a batch being written and the lines after it go out in order.
    private let writing = Lock()

    init(descriptor: Int32, delay: DispatchTimeInterval = LogBatcher.delay) {
        self.descriptor = descriptor
        self.batchDelay = delay
    }

    /// Queues `line` (with its own newline); it is written within `delay`, or with the next
    /// `write` or `flush` if sooner, or now when `maximumPendingBytes` wait.
    func append(_ line: String) {
        enum Next { case nothing, schedule, writeNow }
        let next = pending.withLock { pending -> Next in
            pending.bytes.append(contentsOf: line.utf8)
            if pending.bytes.count >= Self.maximumPendingBytes { return .writeNow }
            guard !pending.scheduled else { return .nothing }
            pending.scheduled = true
            return .schedule
        }
        switch next {
        case .nothing: break
        case .writeNow: drain(then: "", endingBatch: false)
        case .schedule:
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + batchDelay) { [self] in flush() }
        }
    }

    /// Writes what waits and then `line` (with its own newline), now, in one write(2). A batch
    /// still scheduled writes whatever is appended after this.
    func write(_ line: String) {
        drain(then: line, endingBatch: false)
    }

    /// Writes every line queued so far, now (a batch's own scheduled write; at exit).
    func flush() {
        drain(then: "", endingBatch: true)
    }

    private func drain(then line: String, endingBatch: Bool) {
        writing.lock()
        defer { writing.unlock() }
        var bytes = pending.withLock { pending in
            if endingBatch { pending.scheduled = false }
            let bytes = pending.bytes
            pending.bytes = []
            return bytes
        }
        bytes.append(contentsOf: line.utf8)
        for piece in Self.pieces(of: bytes) { writeWhole(bytes[piece]) }
    }

    /// The largest write a pipe takes whole or not at all (POSIX `PIPE_BUF` on Linux).
    static let atomicWrite = 4096

    /// `bytes` cut at line ends into runs of at most `atomicWrite` bytes (a longer line is a run
    /// of its own), so that a write refused half-way (a non-blocking pipe that is full) loses
    /// whole lines, as one write(2) per line did, and never glues a torn line to the next.
    static func pieces(of bytes: [UInt8]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let lineEnd = index + 1
            if lineEnd - start > atomicWrite && lineStart > start {
                pieces.append(start..<lineStart)
                start = lineStart
            }
            lineStart = lineEnd
        }
        if lineStart > start { pieces.append(start..<lineStart) }
        if bytes.count > lineStart { pieces.append(lineStart..<bytes.count) }
        return pieces
    }

    /// Writes `piece`; stops at the first refusal (closed, full and non-blocking): the rest of
    /// this piece is dropped, as a failed write(2) of a line was.
    private func writeWhole(_ piece: ArraySlice<UInt8>) {
        var offset = piece.startIndex
        while offset < piece.endIndex {
            let written = piece.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + (offset - piece.startIndex), piece.endIndex - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
