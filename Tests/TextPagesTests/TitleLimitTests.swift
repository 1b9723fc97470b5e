// Page titles within the broker's limit: a huge <title> must not make sharing the page fail.
import ActivityKit
import Foundation
import Testing

@testable import TextPages

@Suite struct TitleLimitTests {
    /// Regression (share browse review, item 3): a `<title>` of any length was kept, the broker
    /// refused it (over `Items.maxTitleLength`), and the Action sheet said the broker was not
    /// reachable. The title is clipped at a Character boundary, with an ellipsis.
    @Test func aHugeTitleIsClippedToWhatTheBrokerAccepts() throws {
        // A family emoji is one Character of 25 UTF-8 bytes: a cut inside it would split it.
        let family: Character = "👩‍👩‍👧‍👦"
        let title = "Title " + String(repeating: String(family), count: 1_000)
        let metadata = PageExtractor.extract(
            html: "<html><head><title>\(title)</title>"
                + "<meta property=\"og:title\" content=\"\(title)\"></head></html>",
            url: URL(string: "https://example.org/")!)
        let clipped = try #require(metadata.title)
        #expect(clipped.utf8.count <= Items.maxTitleLength)
        #expect(clipped.hasSuffix("…"))
        #expect(clipped.dropLast().allSatisfy { $0 == family || "Title ".contains($0) })
        #expect(try Items(url: "https://example.org/", title: clipped).title == clipped)
        #expect((metadata.openGraphTitle?.utf8.count ?? .max) <= Items.maxTitleLength)
    }

    @Test func aTitleAtTheLimitIsKeptWhole() {
        let title = String(repeating: "a", count: Items.maxTitleLength)
        #expect(PageExtractor.clippedTitle(title) == title)
        #expect(PageExtractor.clippedTitle(title + "b").utf8.count == Items.maxTitleLength)
    }
}
