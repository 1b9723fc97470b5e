// The broker's standard error: batched lines whole, in order, all of them; lines written at once after them.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct LogBatcherTests {
    /// A pipe whose write end a `LogBatcher` writes to; its read end is non-blocking.
    final class Pipe: @unchecked Sendable {
        let read: Int32
        let write: Int32
        private var received: [UInt8] = []

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// Everything written so far (reads what the pipe holds now, without waiting).
        var text: String {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(read, &buffer, buffer.count)
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    @Test("Lines logged from several threads all arrive, whole and each thread's in order, without a flush")
    func linesArriveWholeAndInOrder() async throws {
        let pipe = try Pipe()
        let batcher = LogBatcher(descriptor: pipe.write)
        let threads = 4
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<perThread { batcher.append("thread \(thread) line \(number)\n") }
        }
        var lines: [Substring] = []
        try await waitUntil("every line written", deadline: .seconds(10)) {
            lines = pipe.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            return lines.count >= threads * perThread
        }
        #expect(lines.count == threads * perThread)
        for thread in 0..<threads {
            let own = lines.filter { $0.hasPrefix("thread \(thread) ") }
            #expect(own == (0..<perThread).map { "thread \(thread) line \($0)"[...] })
        }
    }

    @Test("A line written at once goes out after the batched lines still waiting, and a later batch still follows")
    func writeKeepsTheOrder() async throws {
        let pipe = try Pipe()
        let batcher = LogBatcher(descriptor: pipe.write)
        batcher.append("job 1 started\n")
        batcher.append("job 1 completed\n")
        batcher.write("registered org.example\n")
        #expect(pipe.text == "job 1 started\njob 1 completed\nregistered org.example\n")
        batcher.append("job 2 started\n")
        try await waitUntil("the next batch", deadline: .seconds(10)) { pipe.text.hasSuffix("job 2 started\n") }
        #expect(pipe.text == "job 1 started\njob 1 completed\nregistered org.example\njob 2 started\n")
    }

    @Test("flush writes what waits at once (the broker's exit)")
    func flushWritesAtOnce() throws {
        let pipe = try Pipe()
        let batcher = LogBatcher(descriptor: pipe.write)
        batcher.append("first\n")
        batcher.append("second\n")
        batcher.flush()
        #expect(pipe.text == "first\nsecond\n")
    }

    @Test("Batched lines cannot pile up: the line that reaches the bound writes what waits at once")
    func pendingLinesAreBounded() throws {
        let pipe = try Pipe()
        let batcher = LogBatcher(descriptor: pipe.write, delay: .seconds(3600))
        let line = String(repeating: "x", count: 99) + "\n"
        let lines = (LogBatcher.maximumPendingBytes + line.utf8.count - 1) / line.utf8.count
        for _ in 0..<(lines - 1) { batcher.append(line) }
        #expect(pipe.text.isEmpty)
        batcher.append(line)
        #expect(pipe.text.utf8.count == lines * line.utf8.count)
    }
}
