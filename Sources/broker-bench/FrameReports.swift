// The FIFO on which activity-sheet (ACTIVITY_SHEET_REPORT_FRAME) or activity-browser (ACTIVITY_BROWSER_REPORT_PAINT) reports each window's first frame or paint.
import Foundation

/// A named pipe a UI appends `first-frame <CLOCK_MONOTONIC ns>` (or `first-paint …`) lines to, one per window.
///
/// Opened read-write by the bench, so that opening never blocks and the pipe never reports
/// end-of-file between sheets; each line is one `write(2)`, so lines arrive whole. The time
/// in the line is taken inside the sheet's paint, on the machine's monotonic clock: how late
/// the bench reads it does not change the figure.
final class FrameReports {
    let path: String
    /// The word before the time: `first-frame` (the sheet), `first-paint` (the browser).
    let word: String
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String, word: String = "first-frame") throws {
        self.path = path
        self.word = word
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw BenchFailure("mkfifo \(path): errno \(errno)") }
        fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw BenchFailure("open \(path): errno \(errno)") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The monotonic time of the next reported first frame; throws when none comes by `deadline`.
    func next(deadline: ContinuousClock.Instant) throws -> UInt64 {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard line.hasPrefix(word + " "), let time = UInt64(line.dropFirst(word.count + 1)) else {
                    throw BenchFailure("unexpected line on \(path): \(line)")
                }
                return time
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw BenchFailure("no \(word) reported on \(path) in time") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: left.components.seconds * 1000 + 1))
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { pending += buffer[..<count] }
        }
    }
}
