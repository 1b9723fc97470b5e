// DescriptorSource: readiness on the caller's queue, nothing after cancel, and no libdispatch crash on a pipe's hang-up.
import DBus
import DescriptorEvents
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct DescriptorSourceTests {
    let queue = DispatchQueue(label: "DescriptorSourceTests")

    func pipeEnds() throws -> (read: Int32, write: Int32) {
        let ends = try SystemCalls.makePipe()
        SystemCalls.setNonBlocking(ends.read)
        return ends
    }

    @Test func handlerRunsOnTheQueueUntilTheDataIsReadThenAgainForNewData() async throws {
        let ends = try pipeEnds()
        defer { close(ends.write) }
        let closed = Inbox<Bool>()
        let chunks = Inbox<String>()
        let source = DescriptorSource(fd: ends.read, condition: .readable, queue: queue) {
            close(ends.read)
            closed.put(true)
        }
        let started = source.start { [queue] in
            dispatchPrecondition(condition: .onQueue(queue))
            // One byte per call: the level-triggered source must call again for the rest.
            var byte: UInt8 = 0
            if read(ends.read, &byte, 1) == 1 { chunks.put(String(UnicodeScalar(byte))) }
        }
        #expect(started)
        _ = write(ends.write, "ab", 2)
        #expect(try await chunks.next() == "a")
        #expect(try await chunks.next() == "b")
        _ = write(ends.write, "c", 1)
        #expect(try await chunks.next() == "c")
        source.cancel()
        #expect(try await closed.next() == true)
    }

    @Test func aHangUpCallsTheHandlerWhichSeesTheEndOfFile() async throws {
        let ends = try pipeEnds()
        let reads = Inbox<Int>()
        let source = DescriptorSource(fd: ends.read, condition: .readable, queue: queue) { close(ends.read) }
        source.start {
            var byte: UInt8 = 0
            reads.put(read(ends.read, &byte, 1))
        }
        close(ends.write)
        #expect(try await reads.next() == 0)
        source.cancel()
    }

    @Test func nothingRunsAfterCancelOnTheQueueAndOnCancelRunsOnce() async throws {
        let ends = try pipeEnds()
        defer { close(ends.write) }
        let calls = Locked(0)
        let cancels = Inbox<Int>()
        let source = DescriptorSource(fd: ends.read, condition: .readable, queue: queue) {
            close(ends.read)
            cancels.put(1)
        }
        // Never reads: the descriptor stays ready, so only cancel can stop the calls.
        source.start { [source = Unowned(source)] in
            calls.withLock { $0 += 1 }
            source.value.cancel()
        }
        _ = write(ends.write, "x", 1)
        #expect(try await cancels.next() == 1)
        source.cancel()
        // A Ping of the queue: anything queued before it has run.
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(calls.value == 1)
        #expect(cancels.count == 1)
    }

    @Test func aWriteSourceRunsWhileThePipeHasRoom() async throws {
        let ends = try pipeEnds()
        defer { close(ends.read) }
        let room = Inbox<Bool>()
        let source = DescriptorSource(fd: ends.write, condition: .writable, queue: queue) {
            close(ends.write)
        }
        source.start { room.put(true) }
        #expect(try await room.next() == true)
        source.cancel()
    }

    @Test func aRegularFileIsRefusedAndCancelStillRunsOnCancel() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/file"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        let closed = Inbox<Bool>()
        let source = DescriptorSource(fd: fd, condition: .readable, queue: queue) {
            close(fd)
            closed.put(true)
        }
        let started = source.start {}
        #expect(!started)
        source.cancel()
        #expect(try await closed.next() == true)
    }

    /// libdispatch's read sources crashed the process (SIGSEGV in `_dispatch_event_loop_drain`,
    /// a freed muxnote) when children's output pipes hung up while bus connections opened and
    /// closed on other threads: this test died in about half its runs when `SpawnedProcess`
    /// watched its pipes with `DispatchSource`, and CI's test process now and then at start.
    @Test("Children's output captured while bus connections churn never crashes the process")
    func capturedOutputAndConnectionChurnTogether() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let getID = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId")
        let outputs = Locked<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    let launcher = ChildProcessLauncher(queue: DispatchQueue(label: "churn \(worker)"))
                    for round in 0..<100 {
                        let done = Inbox<ProcessTermination>()
                        let options = SpawnOptions(
                            standardInput: "\(worker).\(round)", captureStandardOutput: true,
                            captureStandardError: true)
                        _ = try launcher.spawn(["/bin/cat"], options: options) { done.put($0) }
                        let connection = try await offPool { try bus.connect() }
                        _ = try await connection.call(getID, timeout: .seconds(10))
                        connection.close()
                        let output = try await done.next("the exit of cat")
                        outputs.withLock {
                            $0.append(String(decoding: output.standardOutput ?? [], as: UTF8.self))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let expected = (0..<16).flatMap { worker in (0..<100).map { "\(worker).\($0)" } }
        #expect(outputs.value.sorted() == expected.sorted())
    }
}

/// An unowned reference a `@Sendable` handler may capture (the source must not hold itself).
private struct Unowned<Object: AnyObject>: @unchecked Sendable {
    unowned let value: Object
    init(_ value: Object) { self.value = value }
}
