// Review item 3: a manifest directory is read within a name count and a byte budget, cut with one problem naming it.
import ActivityKit
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct ManifestDirectoryLimitTests {
    static func write(_ count: Int, into directory: TemporaryDirectory) throws {
        for index in 0..<count {
            let name = String(format: "m%03d.json", index)
            // Padded ids: every file has the same size.
            try Data(TestManifest.json(id: String(format: "org.example.limit%03d", index)).utf8)
                .write(to: URL(fileURLWithPath: directory.file(name)))
        }
    }

    @Test func theNamesListedAreCapped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(300, into: directory)
        let reader = ManifestDirectoryReader(nameLimit: 100)
        let names = reader.fileNames(in: directory.path)
        #expect(names.truncated)
        #expect(names.names.count == 100)
        let loaded = ManifestLoader(directory: directory.path, origin: .system, reader: reader).load()
        #expect(loaded.entries.count == 100)
        #expect(loaded.problems.map(\.file) == [directory.path])
        #expect(ManifestDirectoryReader().fileNames(in: directory.path).truncated == false)
        #expect(ManifestDirectoryReader.maximumNames == 65_536)
    }

    @Test func theBytesReadAreBudgetedAndWhatIsKeptIsAPrefix() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(300, into: directory)
        let size = TestManifest.json(id: "org.example.limit100").utf8.count
        // Room for 100 of the 300 files read one by one; the loader's threads share it, so
        // which files it keeps depends on them, but always a prefix of the names.
        let reader = ManifestDirectoryReader(byteBudget: 100 * size)
        let loaded = ManifestLoader(directory: directory.path, origin: .system, reader: reader).load()
        #expect(loaded.entries.count < 300, "\(loaded.entries.count)")
        let expected = (0..<loaded.entries.count).map { String(format: "m%03d.json", $0) }
        #expect(loaded.readNames == expected)
        #expect(loaded.problems.count == 1)
        #expect(loaded.problems.first?.file == directory.path)
        #expect(
            loaded.problems.first?.message.contains("\(300 - loaded.entries.count) manifests not read")
                == true)

        let listing = reader.read(directory: directory.path)
        #expect(listing.files.count == 100)
        #expect(listing.cut?.contains("200 manifests not read") == true)
        #expect(ManifestDirectoryReader().read(directory: directory.path).cut == nil)
    }
}
