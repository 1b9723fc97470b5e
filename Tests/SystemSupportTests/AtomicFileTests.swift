// AtomicFile on a real file system: private directories, replacement, no leftovers.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

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
        try AtomicFile.write(Array("first".utf8), to: path)
        #expect(contents(of: path) == "first")
        #expect(mode(directory.file("state")) == 0o700)
        #expect(mode(directory.file("state/activity-broker")) == 0o700)
        #expect(mode(path) == 0o600)

        try AtomicFile.write(Array("second, longer".utf8), to: path)
        #expect(contents(of: path) == "second, longer")
        try AtomicFile.write([], to: path)
        #expect(contents(of: path) == "")
        #expect(entries(directory.file("state/activity-broker")) == ["usage.json"])
    }

    @Test func failedWriteLeavesTheOldFileAndNoTemporary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("usage.json")
        try AtomicFile.write(Array("old".utf8), to: path)
        // A directory in the way of the rename makes the last step fail.
        let blocked = directory.file("blocked.json")
        try FileManager.default.createDirectory(atPath: blocked + "/inner", withIntermediateDirectories: true)
        #expect(throws: SystemError.self) { try AtomicFile.write(Array("new".utf8), to: blocked) }
        #expect(entries(directory.path) == ["blocked.json", "usage.json"])
        #expect(contents(of: path) == "old")
    }

    @Test func aFileInPlaceOfADirectoryIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AtomicFile.write(Array("x".utf8), to: directory.file("file"))
        #expect(throws: SystemError.self) { try AtomicFile.write(Array("y".utf8), to: directory.file("file/usage.json")) }
    }

    /// A write killed between creating its temporary file and renaming it left a copy of the
    /// data beside the file for good: the next load removes it once it is old enough to be no
    /// live writer's, and nothing else.
    @Test func leftoversOfKilledWritesAreRemovedOnceOld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("usage.json")
        try AtomicFile.write(Array("kept".utf8), to: path)
        func place(_ name: String, secondsAgo: Int) throws {
            try "copy".write(toFile: directory.file(name), atomically: false, encoding: .utf8)
            let then = Date(timeIntervalSinceNow: -Double(secondsAgo))
            try FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: directory.file(name))
        }
        try place(".usage.json.tmp-old1", secondsAgo: 3_600)
        try place(".usage.json.tmp-old2", secondsAgo: Int(AtomicFile.leftoverAge) + 5)
        try place(".usage.json.tmp-live", secondsAgo: 0)
        try place(".other.json.tmp-old", secondsAgo: 3_600)
        try place("usage.json.tmp-old", secondsAgo: 3_600)
        #expect(AtomicFile.removeLeftovers(of: path) == 2)
        #expect(
            entries(directory.path)
                == [".other.json.tmp-old", ".usage.json.tmp-live", "usage.json", "usage.json.tmp-old"])
        #expect(contents(of: path) == "kept")
        #expect(AtomicFile.removeLeftovers(of: directory.file("missing/usage.json")) == 0)
    }
}
