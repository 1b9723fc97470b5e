// AtomicFile and UsageStoreFile on a real file system: replacement, no leftovers, debounced writes.
import Foundation
import Glibc
import Testing

@testable import ActivityBroker

@Suite struct AtomicFileTests {
    func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test func writeCreatesPrivateDirectoriesAndReplacesContent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state/activity-broker/usage.json")
        try AtomicFile.write(Data("first".utf8), to: path)
        #expect(contents(of: path) == "first")
        #expect(mode(directory.file("state")) == 0o700)
        #expect(mode(directory.file("state/activity-broker")) == 0o700)
        #expect(mode(path) == 0o600)

        try AtomicFile.write(Data("second, longer".utf8), to: path)
        #expect(contents(of: path) == "second, longer")
        try AtomicFile.write(Data(), to: path)
        #expect(contents(of: path) == "")
        #expect(entries(directory.file("state/activity-broker")) == ["usage.json"])
    }

    @Test func failedWriteLeavesTheOldFileAndNoTemporary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("usage.json")
        try AtomicFile.write(Data("old".utf8), to: path)
        // A directory in the way of the rename makes the last step fail.
        let blocked = directory.file("blocked.json")
        try FileManager.default.createDirectory(atPath: blocked + "/inner", withIntermediateDirectories: true)
        #expect(throws: SystemError.self) { try AtomicFile.write(Data("new".utf8), to: blocked) }
        #expect(entries(directory.path) == ["blocked.json", "usage.json"])
        #expect(contents(of: path) == "old")
    }

    @Test func aFileInPlaceOfADirectoryIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AtomicFile.write(Data("x".utf8), to: directory.file("file"))
        #expect(throws: SystemError.self) { try AtomicFile.write(Data("y".utf8), to: directory.file("file/usage.json")) }
    }
}

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
        try AtomicFile.write(Data("{\"a\":1}".utf8), to: present)
        #expect(try store(present).load() == Data("{\"a\":1}".utf8))
    }

    @Test func scheduledWritesInABurstCoalesceIntoOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state/usage.json")
        let file = store(path)
        // All in one turn of the queue: the timer cannot fire in between.
        queue.sync {
            for index in 1...20 { file.schedule(Data("v\(index)".utf8)) }
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
            file.schedule(Data("a".utf8))
            file.schedule(Data("b".utf8))
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
        try AtomicFile.write(Data(), to: directory.file("file"))
        let errors = Awaited<SystemError>()
        let file = store(directory.file("file/usage.json"), errors: errors)
        queue.sync { file.schedule(Data("x".utf8)) }
        #expect(errors.wait() != nil)
        queue.sync { #expect(file.hasPendingWrite) }
    }
}
