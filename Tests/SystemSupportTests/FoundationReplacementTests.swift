// The daemon's stand-ins for Foundation calls, each held to what Foundation itself answers.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct FoundationReplacementTests {
    // No setenv here: the suite's other tests read the environment on other threads.
    @Test func processEnvironmentIsProcessInfosEnvironment() {
        let environment = ProcessEnvironment.current
        #expect(environment["PATH"] != nil)
        #expect(environment["PATH"] == getenv("PATH").map { String(cString: $0) })
        #expect(environment == ProcessInfo.processInfo.environment)
    }

    @Test func symbolicLinkTargetIsReadlink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("link"), withDestinationPath: "../some where/é")
        #expect(PathName.symbolicLinkTarget(directory.file("link")) == "../some where/é")
        #expect(
            PathName.symbolicLinkTarget("/proc/self/exe")
                == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(PathName.symbolicLinkTarget(directory.path) == nil)
        #expect(PathName.symbolicLinkTarget(directory.file("missing")) == nil)
    }

    @Test func readFileReadsWholeFilesUpToTheLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: directory.file("big"), contents: Data(bytes)))
        #expect(try SystemCalls.readFile(directory.file("big"), limit: 200_000) == bytes)
        #expect(throws: SystemError.self) { try SystemCalls.readFile(directory.file("big"), limit: 199_999) }
        #expect(FileManager.default.createFile(atPath: directory.file("empty"), contents: Data()))
        #expect(try SystemCalls.readFile(directory.file("empty"), limit: 10) == [])
        // /proc files say they are empty (st_size 0) and are read to their end all the same.
        let status = try SystemCalls.readFile("/proc/self/status", limit: 1 << 20)
        #expect(String(decoding: status, as: UTF8.self).contains("VmRSS:"))
        #expect(throws: SystemError.self) { try SystemCalls.readFile("/proc/self/status", limit: 16) }
    }
}
