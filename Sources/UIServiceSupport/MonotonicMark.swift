// A line with the monotonic time of a UI event (the sheet's first frame, the browser's first paint), for broker-bench.
import Glibc

/// broker-bench times the UI services without linking GTK: at the event, the service writes one
/// line `<event> <CLOCK_MONOTONIC nanoseconds>`, appended to the file (or FIFO) `destination`
/// names when it is an absolute path, else to standard error. The clock is read when the line
/// is written, so the reader may receive it late and still subtract its own start time.
public enum MonotonicMark {
    /// Writes `<event> <now>` to `destination` (from the service's environment variable).
    public static func write(_ event: String, to destination: String) {
        write(line: "\(event) \(monotonicNanoseconds())\n", to: destination)
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// One `write(2)` of a short line: atomic on a FIFO, so readers never see halves.
    private static func write(line: String, to destination: String) {
        let fd =
            destination.hasPrefix("/")
            ? open(destination, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) : 2
        guard fd >= 0 else { return }
        defer { if fd != 2 { close(fd) } }
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}
