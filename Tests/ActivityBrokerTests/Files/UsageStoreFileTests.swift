// UsageStoreFile on a real file system: load, debounced writes counted, flush, write errors.
import Foundation
import Glibc
import SystemSupport
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct UsageStoreFileTests {
    let queue = DispatchQueue(label: "UsageStoreFileTests")

    func store(_ path: String, delay: TimeInterval = 0.05, errors: Awaited<SystemError>? = nil) -> UsageStoreFile {
        UsageStoreFile(path: path, queue: queue, delay: delay) { errors?.set($0) }
    }

    @Test func missingFileLoadsAsNilAndUnreadableIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try store(directory.file("none.json")).load() == nil)
        try FileManager.default.createDirectory(atPath: directory.file("dir.json"), withIntermediateDirectories: true)
        #expect(throws: SystemError.self) { try store(directory.file("dir.json")).load() }
        let present = directory.file("usage.json")
        try AtomicFile.write(Array("{\"a\":1}".utf8), to: present)
        #expect(try store(present).load() == Array("{\"a\":1}".utf8))
    }

    @Test func scheduledWritesInABurstCoalesceIntoOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state/usage.json")
        let file = store(path)
        // All in one turn of the queue: the timer cannot fire in between.
        queue.sync {
            for index in 1...20 { file.schedule(Array("v\(index)".utf8)) }
        }
        #expect(eventually { contents(of: path) == "v20" })
        queue.sync {
            #expect(file.writeCount == 1)
            #expect(!file.hasPendingWrite)
        }
    }

    @Test func flushWritesImmediatelyAndOnlyOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("usage.json")
        let file = store(path, delay: 3600)
        try queue.sync {
            file.schedule(Array("a".utf8))
            file.schedule(Array("b".utf8))
            #expect(contents(of: path) == nil)
            try file.flush()
            #expect(contents(of: path) == "b")
            #expect(file.writeCount == 1)
            try file.flush()  // nothing pending: no second write
            #expect(file.writeCount == 1)
        }
    }

    @Test func aFailedDebouncedWriteIsReportedAndKeptPending() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AtomicFile.write([], to: directory.file("file"))
        let errors = Awaited<SystemError>()
        let file = store(directory.file("file/usage.json"), errors: errors)
        queue.sync { file.schedule(Array("x".utf8)) }
        #expect(errors.wait() != nil)
        queue.sync { #expect(file.hasPendingWrite) }
    }
}
