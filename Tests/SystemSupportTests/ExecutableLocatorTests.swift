// ExecutableLocator: PATH search, what counts as executable, and the cache with its invalidation.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct ExecutableLocatorTests {
    func makeProgram(_ path: String, mode: mode_t = 0o755) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8)))
        #expect(chmod(path, mode) == 0)
    }

    @Test func findsTheFirstExecutableOnPath() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let first = try root.directory("first")
        let second = try root.directory("second")
        try makeProgram(second.file("tool"))
        try makeProgram(first.file("plain"), mode: 0o644)
        try makeProgram(second.file("plain"))
        try FileManager.default.createDirectory(atPath: first.file("dir"), withIntermediateDirectories: true)
        let path = "\(first.path):\(second.path)/"
        let locator = ExecutableLocator()
        #expect(locator.find("tool", path: path) == second.file("tool"))
        // A non-executable file earlier on PATH does not hide an executable later.
        #expect(locator.find("plain", path: path) == second.file("plain"))
        #expect(locator.find("dir", path: path) == nil)
        #expect(locator.find("missing", path: path) == nil)
        #expect(locator.find("", path: path) == nil)
        #expect(locator.find("/bin/sh", path: "") == "/bin/sh")
        #expect(locator.find(first.file("plain"), path: path) == nil)
    }

    @Test func relativeAndEmptyPathEntriesAreIgnored() {
        #expect(ExecutableLocator.directories(in: "::bin:/usr/bin/:./x:/usr/bin:/bin") == ["/usr/bin", "/bin"])
        #expect(ExecutableLocator().find("sh", path: ".:bin") == nil)
    }

    @Test func answersAreCachedUntilInvalidated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let locator = ExecutableLocator()
        #expect(locator.find("late", path: directory.path) == nil)
        try makeProgram(directory.file("late"))
        #expect(locator.find("late", path: directory.path) == nil)  // cached miss
        #expect(locator.find("late", path: directory.path + ":/nonexistent") == directory.file("late"))  // other PATH
        locator.invalidate()
        #expect(locator.find("late", path: directory.path) == directory.file("late"))
        try FileManager.default.removeItem(atPath: directory.file("late"))
        #expect(locator.find("late", path: directory.path) == directory.file("late"))  // cached hit
        locator.invalidate()
        #expect(locator.find("late", path: directory.path) == nil)
    }

    @Test func environmentLookupUsesItsPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try makeProgram(directory.file("only-here"))
        #expect(ExecutableLocator().find("only-here", environment: ["PATH": directory.path]) == directory.file("only-here"))
        #expect(ExecutableLocator().find("only-here", environment: ["PATH": "/usr/bin"]) == nil)
    }
}
