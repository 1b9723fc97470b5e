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
}
