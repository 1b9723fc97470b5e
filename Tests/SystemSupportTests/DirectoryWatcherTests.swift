// DirectoryWatcher against the real file system: changes, late-created and recreated directories.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct DirectoryWatcherTests {
    let queue = DispatchQueue(label: "DirectoryWatcherTests")
    let fileManager = FileManager.default

    func watch(_ directories: [String], reports: Awaited<Set<String>>) throws -> DirectoryWatcher {
        try DirectoryWatcher(directories: directories, queue: queue) { reports.set($0) }
    }

    /// Runs `action` and waits until a report after it names `directory`.
    func expectReport(
        of directory: String, in reports: Awaited<Set<String>>, sourceLocation: SourceLocation = #_sourceLocation,
        _ action: () throws -> Void
    ) rethrows {
        let before = reports.all.count
        try action()
        let reported = eventually { reports.all.dropFirst(before).contains { $0.contains(directory) } }
        #expect(reported, sourceLocation: sourceLocation)
    }

    /// Watches `name` inside a fresh temporary directory (created first when `exists`), or the
    /// directory itself when `name` is nil, and runs `body` with the directory, the watched
    /// path and the reports.
    func withWatched(
        _ name: String?, exists: Bool,
        _ body: (_ directory: TemporaryDirectory, _ target: String, _ reports: Awaited<Set<String>>) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = name.map(directory.file) ?? directory.path
        if exists { try fileManager.createDirectory(atPath: target, withIntermediateDirectories: true) }
        let reports = Awaited<Set<String>>()
        let watcher = try watch([target], reports: reports)
        defer { queue.sync { watcher.cancel() } }
        try body(directory, target, reports)
    }

    /// Expects `target`'s creation to be reported, and then a file written inside it: the
    /// watch was re-armed on the new directory itself.
    func expectCreatedAndWatched(
        _ target: String, in reports: Awaited<Set<String>>, file: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectReport(of: target, in: reports, sourceLocation: sourceLocation) {
            try fileManager.createDirectory(atPath: target, withIntermediateDirectories: true)
        }
        try expectReport(of: target, in: reports, sourceLocation: sourceLocation) {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: target + "/" + file))
        }
    }

    @Test func reportsCreateModifyRenameAndDelete() async throws {
        try await offPool {
            try withWatched(nil, exists: true) { directory, target, reports in
                try expectReport(of: target, in: reports) {
                    try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file("a.json")))
                }
                try expectReport(of: target, in: reports) {
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("a.json")))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data(" ".utf8))
                    try handle.close()
                }
                try expectReport(of: target, in: reports) {
                    try fileManager.moveItem(
                        atPath: directory.file("a.json"), toPath: directory.file("b.json"))
                }
                try expectReport(of: target, in: reports) {
                    try fileManager.removeItem(atPath: directory.file("b.json"))
                }
                #expect(reports.all.allSatisfy { $0 == [target] })
            }
        }
    }

    @Test func directoryCreatedAfterStartIsPickedUp() async throws {
        try await offPool {
            try withWatched("share/activity-broker/extensions", exists: false) { _, target, reports in
                try expectCreatedAndWatched(target, in: reports, file: "x.json")
            }
        }
    }

    @Test func directoryDeletedAndRecreatedIsStillWatched() async throws {
        try await offPool {
            try withWatched("extensions", exists: true) { _, target, reports in
                try expectReport(of: target, in: reports) { try fileManager.removeItem(atPath: target) }
                try expectCreatedAndWatched(target, in: reports, file: "y.json")
            }
        }
    }

    @Test func directoryMovedAwayAndBackIsReported() async throws {
        try await offPool {
            try withWatched("extensions", exists: true) { directory, target, reports in
                try expectReport(of: target, in: reports) {
                    try fileManager.moveItem(atPath: target, toPath: directory.file("elsewhere"))
                }
                try expectReport(of: target, in: reports) {
                    try fileManager.moveItem(atPath: directory.file("elsewhere"), toPath: target)
                }
                try expectReport(of: target, in: reports) {
                    try Data("{}".utf8).write(to: URL(fileURLWithPath: target + "/z.json"))
                }
            }
        }
    }

    @Test func aBurstIsCoalescedIntoOneReport() throws {
        try withWatched(nil, exists: true) { directory, target, reports in
            // While the queue is held, every event waits in the inotify descriptor.
            try queue.sync {
                for index in 0..<50 {
                    try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file("\(index).json")))
                }
            }
            #expect(eventually { !reports.all.isEmpty })
            queue.sync {}
            #expect(reports.all == [[target]])
        }
    }

    @Test func onlyTheChangedDirectoryIsReported() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let first = try root.directory("first")
        let second = try root.directory("second")
        let reports = Awaited<Set<String>>()
        let watcher = try watch([first.path, second.path + "/"], reports: reports)
        defer { queue.sync { watcher.cancel() } }
        #expect(queue.sync { watcher.directories } == [first.path, second.path])

        try expectReport(of: second.path, in: reports) {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: second.file("a.json")))
        }
        #expect(!reports.all.contains { $0.contains(first.path) })
    }

    @Test func pathsAreNormalized() {
        #expect(DirectoryWatcher.normalize(["/a//b/./c/", "/a/b/c", "relative", "/x/../y"]) == ["/a/b/c", "/y"])
    }

    @Test func aSymlinkToAWatchedDirectoryDoesNotNarrowItsWatch() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let real = directory.file("real")
            try fileManager.createDirectory(atPath: real, withIntermediateDirectories: true)
            // "alias" is a symlink to "real"; "alias/missing" makes it an ancestor watch of the same inode.
            try fileManager.createSymbolicLink(atPath: directory.file("alias"), withDestinationPath: real)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: real + "/a.json"))
            let reports = Awaited<Set<String>>()
            let watcher = try watch([real, directory.file("alias/missing")], reports: reports)
            defer { queue.sync { watcher.cancel() } }

            // IN_ATTRIB is only in the content mask: lost if the ancestor mask replaced it.
            expectReport(of: real, in: reports) {
                #expect(chmod(real + "/a.json", 0o640) == 0)
            }
            try expectReport(of: directory.file("alias/missing"), in: reports) {
                try fileManager.createDirectory(atPath: real + "/missing", withIntermediateDirectories: false)
            }
        }
    }
}
