// Reading the one readiness line a child writes to a pipe (dbus-daemon's address, Xvfb's display).
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The line a child writes to a dedicated pipe once it is ready: `TestBus` waits on
/// dbus-daemon's `--print-address`, `XvfbServer` on Xvfb's `-displayfd`. Waiting on that line
/// (with `poll` and a deadline) is the readiness signal: no polling of sockets, no sleeps.
enum ReadinessLine {
    /// Reads one line from `fd`, without its newline; nil on EOF or when `deadline` passes.
    /// The pipe carries nothing after the line, so what follows it in the last read is dropped.
    static func read(_ fd: Int32, deadline: Deadline) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !deadline.hasPassed {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return nil }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            bytes += buffer[..<count]
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
        }
        return nil
    }
}
