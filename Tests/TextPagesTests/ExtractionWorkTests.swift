// ExtractionWorkTests: reading HTML costs a constant per byte whatever the page's shape (issue 11, item 16).

import Foundation
import Navigation
import TestSupport
import Testing
import TextPages

/// Hostile shapes that were quadratic: the work counter must stay under a small constant per
/// byte, and doubling the input must about double the work (no timing: the count is exact).
@Suite struct ExtractionWorkTests {
    static let url = URL(string: "https://example.com/")!
    /// Steps a byte that any page stays under; the default budget allows 64.
    static let perByte = 12

    static func work(_ html: String) throws -> (work: Int, bytes: Int, metadata: PageMetadata) {
        let bytes = Array(html.utf8)
        let reading = try PageExtractor.read(html: bytes, url: url, budget: ExtractionBudget())
        return (reading.work, bytes.count, reading.metadata)
    }

    static func expectLinear(
        _ make: (Int) -> String, small: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let one = try work(make(small))
        let two = try work(make(small * 2))
        #expect(
            one.work <= perByte * one.bytes, "\(one.work) steps for \(one.bytes) bytes",
            sourceLocation: sourceLocation)
        #expect(
            two.work <= perByte * two.bytes, "\(two.work) steps for \(two.bytes) bytes",
            sourceLocation: sourceLocation)
        // Twice the input, at most a little over twice the work.
        #expect(
            Double(two.work) <= 2.2 * Double(one.work), "\(one.work) then \(two.work)",
            sourceLocation: sourceLocation)
    }

    /// Regression: 40k attributes on one tag took 5 s (each attribute searched the list).
    @Test func fortyThousandAttributes() throws {
        try Self.expectLinear(
            { n in
                "<div " + (0..<n).map { "a\($0)=x" }.joined(separator: " ") + "><a href=/x>x</a></div>"
            }, small: 20_000)
        let page = try Self.work(
            "<a " + (0..<40_000).map { "d\($0)=1" }.joined(separator: " ") + " href=/y>y</a>")
        #expect(page.metadata.links.map(\.text) == ["y"])
    }

    /// Regression: one big `<article>` and 1,000 empty ones took 45 s (the big one was
    /// re-read for every comparison).
    @Test func oneBigArticleAndAThousandEmptyOnes() async throws {
        try await offPool {
            try Self.expectLinear(
                { n in
                    "<article><p>" + String(repeating: "word ", count: 100_000) + "</p></article>"
                        + String(repeating: "<article></article>", count: n)
                }, small: 1_000)
            let page = try Self.work(
                "<article><p>" + String(repeating: "word ", count: 1000) + "</p></article>"
                    + String(repeating: "<article></article>", count: 1_000))
            #expect(page.metadata.reader?.paragraphs.count == 1)
        }
    }

    /// Many tags under the deepest nesting kept: each used to walk the whole open stack.
    @Test func manyParagraphsUnderDeepNesting() throws {
        try Self.expectLinear(
            { n in
                String(repeating: "<div>", count: 600) + String(repeating: "<p>x <a href=/a>a</a>", count: n)
            }, small: 5_000)
    }

    @Test func unclosedCommentsScriptsAndQuotes() throws {
        try Self.expectLinear({ n in String(repeating: "<!-- <script> <a href='", count: n) }, small: 10_000)
        try Self.expectLinear(
            { n in String(repeating: "<title><textarea>&amp;&#x41;", count: n) }, small: 10_000)
    }

    @Test func aPageOverItsBudgetIsRefused() {
        let html = Array(String(repeating: "<p>x</p>", count: 10_000).utf8)
        #expect(throws: PageLoadError.self) {
            try PageExtractor.read(
                html: html, url: Self.url, budget: ExtractionBudget(workPerByte: 1, baseWork: 0))
        }
    }

    @Test func aPageOverItsProcessorTimeIsRefused() {
        let html = Array(String(repeating: "<p>x</p>", count: 10_000).utf8)
        #expect {
            try PageExtractor.read(html: html, url: Self.url, budget: ExtractionBudget(processorSeconds: 0))
        } throws: { error in
            if case PageLoadError.tooComplex(let detail) = error { return detail.contains("processor time") }
            return false
        }
    }

    @Test func aCancelledTaskStopsReading() async {
        let html = Array(String(repeating: "<p>x</p>", count: 10_000).utf8)
        let task = Task { () -> PageLoadError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(PageLoadError) {
                _ = try PageExtractor.read(html: html, url: Self.url, budget: ExtractionBudget())
                return nil
            } catch { return error }
        }
        #expect(await task.value == .cancelled)
    }
}
