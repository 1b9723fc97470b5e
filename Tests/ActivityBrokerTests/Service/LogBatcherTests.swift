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

    @Test("A full non-blocking pipe loses whole lines only: no torn line, and what follows starts a line")
    func aFullPipeLosesWholeLines() throws {
        let pipe = try Pipe()
        _ = fcntl(pipe.write, F_SETFL, fcntl(pipe.write, F_GETFL) | O_NONBLOCK)
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ (<linux/fcntl.h>; not in Swift's Glibc)
        let capacity = Int(fcntl(pipe.write, getPipeSize))
        try #require(capacity > 4096)
        // Every page of the pipe full but one: a write larger than a page is then cut at 4096
        // bytes, wherever that falls.
        let page = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        for _ in 0..<(capacity / 4096 - 1) { #expect(Glibc.write(pipe.write, page, page.count) == page.count) }
        let filler = capacity - 4096
        let batcher = LogBatcher(descriptor: pipe.write, delay: .seconds(3600))
        // 150 lines, about 9 KB: more than a pipe takes whole, so one write(2) of all of them
        // would be cut in the middle of a line.
        for number in 0..<150 { batcher.append("job \(number) started, and a line long enough to matter\n") }
        batcher.flush()
        _ = pipe.text  // the reader catches up
        batcher.write("stopped\n")
        let text = pipe.text
        let lines = text.dropFirst(filler).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        for line in lines.dropLast() {
            #expect(line == "stopped" || (line.hasPrefix("job ") && line.hasSuffix("long enough to matter")))
        }
        #expect(lines.dropLast().last == "stopped")
    }

    @Test("Batches are cut at line ends into writes a pipe takes whole; a longer line is a write of its own")
    func piecesEndAtLineEnds() {
        let short = Array(String(repeating: "a", count: 999).utf8) + [10]
        let long = Array(String(repeating: "b", count: 5000).utf8) + [10]
        let bytes = short + short + short + short + short + long + short + Array("tail".utf8)
        let pieces = LogBatcher.pieces(of: bytes)
        #expect(pieces == [0..<4000, 4000..<5000, 5000..<10001, 10001..<11001, 11001..<11005])
        #expect(pieces.allSatisfy { $0.count <= LogBatcher.atomicWrite || bytes[$0].filter { $0 == 10 }.count == 1 })
    }
}
