// DirectoryTree held to GIO's walk of an applications directory (gdesktopappinfo.c, get_apps_from_dir).
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

/// The walk GIO does (symlinks followed, unreadable directories skipped, names ending in the
/// suffix taken and never entered) and the bounds it adds (loops, depth, entries). What GIO
/// itself answers on such trees is checked by GIODifferentialTests on the real broker.
@Suite struct DirectoryTreeTests {
    private static func make(
        _ directory: TemporaryDirectory, dirs: [String], files: [String], links: [String: String]
    )
        throws
    {
        let manager = FileManager.default
        for sub in dirs {
            try manager.createDirectory(atPath: directory.file(sub), withIntermediateDirectories: true)
        }
        for file in files {
            #expect(
                manager.createFile(atPath: directory.file(file), contents: Data("[Desktop Entry]\n".utf8)))
        }
        for (link, target) in links {
            try manager.createSymbolicLink(atPath: directory.file(link), withDestinationPath: target)
        }
    }

    @Test func followsSymlinkedDirectoriesAsGIODoes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(
            directory,
            dirs: ["tree/a/b", "tree/.hidden", "tree/empty", "tree/dir.desktop", "elsewhere/apps"],
            files: [
                "tree/a/x.desktop", "tree/a/b/y.desktop", "tree/.hidden/z.desktop", "tree/top.desktop",
                "tree/notes.txt", "tree/dir.desktop/inner.desktop", "elsewhere/apps/w.desktop",
            ],
            links: [
                "tree/link": "a", "tree/dangling.desktop": "/nonexistent",
                "tree/dangling-dir": "/nonexistent",
                "tree/outside": "../elsewhere/apps", "linked-tree": "tree",
            ])
        let expected = [
            ".hidden/z.desktop", "a/b/y.desktop", "a/x.desktop", "dangling.desktop", "dir.desktop",
            "link/b/y.desktop", "link/x.desktop", "outside/w.desktop", "top.desktop",
        ]
        let listing = DirectoryTree.files(endingIn: ".desktop", under: directory.file("tree"))
        #expect(listing.paths.sorted() == expected)
        #expect(listing.problems.isEmpty)
        // The applications directory itself a symlink (a dotfile manager's, a Nix profile's).
        let linked = DirectoryTree.files(endingIn: ".desktop", under: directory.file("linked-tree"))
        #expect(linked.paths.sorted() == expected)
        for missing in ["missing", "tree/top.desktop", "tree/dangling-dir"] {
            let none = DirectoryTree.files(endingIn: ".desktop", under: directory.file(missing))
            #expect(none.paths.isEmpty && none.problems.isEmpty, "\(missing)")
        }
    }

    @Test func aSymlinkLoopEndsWithOneProblem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(
            directory, dirs: ["tree/sub"], files: ["tree/top.desktop", "tree/sub/s.desktop"],
            links: ["tree/sub/up": "..", "tree/sub/self": ".", "tree/sub/sideways": "../sub"])
        let listing = DirectoryTree.files(endingIn: ".desktop", under: directory.file("tree"))
        #expect(listing.paths.sorted() == ["sub/s.desktop", "top.desktop"])
        #expect(
            listing.problems.map(\.path).sorted()
                == ["sub/self", "sub/sideways", "sub/up"].map { directory.file("tree/" + $0) })
        #expect(listing.problems.allSatisfy { $0.message.contains("symlink loop") })
    }

    @Test func twoLinksToOneDirectoryAreTwoPathsAsInGIO() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(
            directory, dirs: ["tree/real"], files: ["tree/real/r.desktop"],
            links: ["tree/one": "real", "tree/two": "real"])
        let listing = DirectoryTree.files(endingIn: ".desktop", under: directory.file("tree"))
        #expect(listing.paths.sorted() == ["one/r.desktop", "real/r.desktop", "two/r.desktop"])
    }

    @Test func depthAndEntriesAreBounded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(
            directory, dirs: ["tree/1/2/3"],
            files: ["tree/0.desktop", "tree/1/1.desktop", "tree/1/2/2.desktop", "tree/1/2/3/3.desktop"],
            links: [:])
        let deep = DirectoryTree.files(
            endingIn: ".desktop", under: directory.file("tree"), limits: .init(depth: 2, entries: 100))
        #expect(deep.paths.sorted() == ["0.desktop", "1/1.desktop", "1/2/2.desktop"])
        #expect(deep.problems.map(\.path) == [directory.file("tree/1/2/3")])
        let many = DirectoryTree.files(
            endingIn: ".desktop", under: directory.file("tree"), limits: .init(depth: 16, entries: 4))
        // 0.desktop, 1, 1/1.desktop, 1/2: the fifth name read (in 1/2) stops the walk.
        #expect(many.paths.sorted() == ["0.desktop", "1/1.desktop"])
        #expect(many.problems.count == 1)
        #expect(many.problems.first?.message.contains("more than 4 entries") == true)
    }

    /// GIO skips a directory it cannot open; so do we, and say so once. As root (CI), the
    /// calling thread drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH for the walk (capabilities
    /// are per thread on Linux), so the kernel refuses the mode-000 directory for real.
    @Test func anUnreadableSubdirectoryIsSkippedAlone() throws {
        let directory = try TemporaryDirectory()
        defer {
            chmod(directory.file("tree/locked"), 0o755)
            directory.remove()
        }
        try Self.make(
            directory, dirs: ["tree/locked", "tree/open"],
            files: ["tree/top.desktop", "tree/open/o.desktop", "tree/locked/l.desktop"], links: [:])
        #expect(chmod(directory.file("tree/locked"), 0) == 0)
        let listing = try ThreadCapabilities.withoutFileAccessOverride {
            DirectoryTree.files(endingIn: ".desktop", under: directory.file("tree"))
        }
        #expect(listing.paths.sorted() == ["open/o.desktop", "top.desktop"])
        #expect(listing.problems.map(\.path) == [directory.file("tree/locked")])
        #expect(listing.problems.first?.message.contains("Permission denied") == true)
    }
}
