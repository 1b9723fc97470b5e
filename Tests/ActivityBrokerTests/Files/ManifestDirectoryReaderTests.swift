// ManifestDirectoryReader: which files are read, and one bad file never stops the others.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct ManifestDirectoryReaderTests {
    @Test func readsJSONFilesAndReportsBadOnesSeparately() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileManager = FileManager.default
        try Data("{\"id\":\"a\"}".utf8).write(to: URL(fileURLWithPath: directory.file("a.json")))
        try Data().write(to: URL(fileURLWithPath: directory.file("masked.json")))
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file(".hidden.json")))
        try Data(repeating: 32, count: 2_000).write(to: URL(fileURLWithPath: directory.file("big.json")))
        try fileManager.createDirectory(atPath: directory.file("dir.json"), withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(atPath: directory.file("link.json"), withDestinationPath: directory.file("a.json"))
        try fileManager.createSymbolicLink(atPath: directory.file("dangling.json"), withDestinationPath: directory.file("gone"))
        #expect(mkfifo(directory.file("fifo.json"), 0o600) == 0)
        try fileManager.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file("sub/nested.json")))

        let listing = ManifestDirectoryReader(sizeLimit: 1_000).read(directory: directory.path)
        #expect(listing.directoryError == nil)
        #expect(listing.files == [
            "a.json": Array("{\"id\":\"a\"}".utf8), "link.json": Array("{\"id\":\"a\"}".utf8), "masked.json": [],
        ])
        #expect(listing.errors["big.json"] == .tooLarge(limit: 1_000))
        #expect(listing.errors["dir.json"] == .notRegularFile)
        #expect(listing.errors["fifo.json"] == .notRegularFile)
        if case .unreadable(let error) = listing.errors["dangling.json"] {
            #expect(error.code == ENOENT)
        } else {
            Issue.record("dangling.json: \(String(describing: listing.errors["dangling.json"]))")
        }
        #expect(listing.errors.count == 4)
    }

    @Test func missingDirectoryIsEmptyWithoutError() {
        let listing = ManifestDirectoryReader().read(directory: "/nonexistent/activity-broker/extensions")
        #expect(listing.files.isEmpty && listing.errors.isEmpty && listing.directoryError == nil)
    }
}
