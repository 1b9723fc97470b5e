// Review items 2 and 5: a watched directory with a name filter reports only those names; a watch that cannot be added is reported once.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct DirectoryWatcherFilterTests {
    let queue = DispatchQueue(label: "DirectoryWatcherFilterTests")
    static let mimeApps = DirectoryWatcher.NameFilter(
        names: ["mimeapps.list", "defaults.list"], suffixes: ["-mimeapps.list"])

    func write(_ path: String) throws {
        try Data("[Default Applications]\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Writing any file in `~/.config` reloaded the whole catalog. Events are read in order
    /// from one descriptor, and a report holds every directory changed until then: a report
    /// naming only the sentinel directory, written after the other file, proves the other
    /// file counted for nothing.
    @Test func otherNamesInAFilteredDirectoryAreNotReported() async throws {
        try await offPool {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let config = root.file("config")
            let sentinel = root.file("sentinel")
            for path in [config, sentinel] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
            let reports = Awaited<Set<String>>()
            let watcher = try DirectoryWatcher(
                directories: [config, sentinel], filters: [config + "/": Self.mimeApps], queue: queue
            ) { reports.set($0) }
            defer { queue.sync { watcher.cancel() } }

            func expectReported(_ directory: String, after action: () throws -> Void) rethrows {
                let before = reports.all.count
                try action()
                #expect(eventually { reports.all.dropFirst(before).contains { $0.contains(directory) } })
            }
            try expectReported(sentinel) {
                try write(config + "/monitors.xml")
                try write(config + "/mimeapps.list.ABC123")  // GLib's temporary, before its rename
                try FileManager.default.createDirectory(
                    atPath: config + "/app", withIntermediateDirectories: false)
                try write(sentinel + "/x")
            }
            #expect(!reports.all.contains { $0.contains(config) }, "\(reports.all)")

            try expectReported(config) { try write(config + "/mimeapps.list") }
            try expectReported(config) {
                try FileManager.default.moveItem(
                    atPath: config + "/mimeapps.list.ABC123", toPath: config + "/gnome-mimeapps.list")
            }
            try expectReported(config) {
                try FileManager.default.removeItem(atPath: config + "/gnome-mimeapps.list")
            }
        }
    }

    /// A directory the broker may not read (`EACCES`) was left unwatched without a word.
    /// Root reads every directory, so this runs only for other users.
    @Test(.enabled(if: getuid() != 0, "root can watch a directory of mode 000"))
    func aDirectoryThatCannotBeWatchedIsReportedOnce() async throws {
        try await offPool {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let closed = root.file("closed")
            try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: true)
            #expect(chmod(closed, 0) == 0)
            defer { chmod(closed, 0o700) }
            let problems = Awaited<String>()
            let reports = Awaited<Set<String>>()
            let watcher = try DirectoryWatcher(
                directories: [closed, root.path], queue: queue, onProblem: { problems.set($0) }
            ) { reports.set($0) }
            defer { queue.sync { watcher.cancel() } }
            #expect(problems.all.count == 1)
            #expect(problems.all.first?.contains(closed) == true)
            // A re-arm (something appearing next to it) does not repeat it.
            try write(root.file("other"))
            #expect(eventually { reports.all.contains { $0.contains(root.path) } })
            queue.sync { watcher.update(directories: [closed, root.path, root.file("new")]) }
            #expect(problems.all.count == 1)
        }
    }
}
