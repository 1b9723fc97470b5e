// A private X server (Xvfb) for the share-sheet figures: picks a free display itself, stopped when the bench ends.
import Foundation
import TestSupport

/// `Xvfb -displayfd 3 -nolisten tcp`: ready when it writes its display number to fd 3 (it
/// does so once it accepts connections), so no polling. `stop()` ends it; should the bench
/// die first, `ChildProcess`'s deinit does not run, but Xvfb only holds a socket in /tmp.
final class XvfbDisplay {
    /// `:N`.
    let display: String
    private let server: ChildProcess

    init(deadline: Deadline = .seconds(20)) throws {
        let pipe = try ChildProcess.makePipe()
        do {
            server = try ChildProcess(
                executable: "Xvfb",
                arguments: ["-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                fileDescriptors: [3: pipe.write])
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        close(pipe.write)
        defer { close(pipe.read) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while !bytes.contains(UInt8(ascii: "\n")) {
            var poller = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            let count =
                ready > 0 ? buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) } : 0
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                server.kill()
                throw BenchFailure("Xvfb did not report a display: \(server.standardError.suffix(2000))")
            }
            bytes += buffer[..<count]
        }
        let number = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        display = ":" + number
    }

    /// Ends the server and waits for it.
    func stop() {
        server.terminate()
        if (try? server.waitForExit(deadline: .seconds(5))) == nil { server.kill() }
    }
}
