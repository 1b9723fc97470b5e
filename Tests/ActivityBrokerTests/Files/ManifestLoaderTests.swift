// ManifestLoader: the parallel read gives what a file-by-file read gives, in the same order every time.
import ActivityKit
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite struct ManifestLoaderTests {
    /// 300 manifests (several chunks of `ManifestLoader.minimumChunk`), a mask, broken files.
    static func write(into directory: TemporaryDirectory) throws {
        for index in 0..<300 {
            let host = index % 2 == 0 ? "*.example.org" : "site\(index).example"
            let json = """
                {"id": "org.example.loader\(index)", "name": "Loader \(index)", "names": {"de": "Lader \(index)"},
                 "category": "\(index % 3 == 0 ? "action" : "share")", "match": {"hosts": ["\(host)"]},
                 "perform": {"exec": ["/bin/true", "{url}"]}, "priority": \(index % 4)}
                """
            try Data(json.utf8).write(to: URL(fileURLWithPath: directory.file("m\(index).json")))
        }
        try Data().write(to: URL(fileURLWithPath: directory.file("masked.json")))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: directory.file("broken.json")))
        try Data(#"{"id": "org.example.nocategory", "name": "N", "perform": {"open": "{url}"}}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("zz-missing-field.json")))
    }

    @Test func givesTheSameActivitiesAsDecodingEachFile() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try Self.write(into: directory)

            let loaded = ManifestLoader(directory: directory.path, origin: .system).load()

            // The reference: the directory read and each file decoded on this thread.
            let listing = ManifestDirectoryReader().read(directory: directory.path)
            var expected: [String: StaticEntry] = [:]
            var expectedProblems: [String] = []
            for (name, data) in listing.files {
                if Manifest.isMask(data) {
                    expected[name] = .masked
                    continue
                }
                do {
                    expected[name] = .activity(try Manifest.decode(data, fileName: name, origin: .system))
                } catch {
                    expectedProblems.append(directory.file(name))
                }
            }
            #expect(loaded.entries.count == 301)
            #expect(loaded.entries == expected)
            #expect(loaded.problems.map(\.file) == expectedProblems.sorted())
            #expect(loaded.problems.count == 2)
            #expect(loaded.readPaths == (0..<300).map { directory.file("m\($0).json") }.sorted())
        }
    }

    @Test func theSameFilesGiveTheSameResultEveryTime() async throws {
        try await offPool {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try Self.write(into: directory)
            let loader = ManifestLoader(directory: directory.path, origin: .user)
            let first = loader.load()
            for _ in 0..<3 {
                let again = loader.load()
                #expect(again.entries == first.entries)
                #expect(again.problems.map(\.file) == first.problems.map(\.file))
                #expect(again.problems.map(\.message) == first.problems.map(\.message))
                #expect(again.readPaths == first.readPaths)
            }
            var registry = Registry()
            registry.setStaticLayers([StaticLayer(origin: .user, entries: first.entries)])
            #expect(registry.count == 300)
            #expect(registry.conflicts.isEmpty)
        }
    }

    @Test func aMissingDirectoryGivesNothing() {
        let loaded = ManifestLoader(directory: "/nonexistent/activity-broker/extensions", origin: .system).load()
        #expect(loaded.entries.isEmpty)
        #expect(loaded.problems.isEmpty)
        #expect(loaded.readPaths.isEmpty)
    }
}
