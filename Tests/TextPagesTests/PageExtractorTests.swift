// PageExtractorTests: metadata, links and reader text read from HTML strings.

import Foundation
import Navigation
import Testing
import TextPages

@Suite("Page extractor")
struct PageExtractorTests {
    let base = URL(string: "https://www.example.com/dir/page.html")!

    @Test func titleCanonicalAndOpenGraph() {
        let metadata = PageExtractor.extract(
            html: """
                <head><title>
                  Hello &amp;
                  world</title><title>second</title>
                <link rel="Canonical" href="/canonical">
                <meta property="og:title" content="OG title"><meta name="og:description" content=" d ">
                <meta property="og:site_name" content="Example"></head>
                """, url: base)
        #expect(metadata.title == "Hello & world")
        #expect(metadata.canonicalURL == URL(string: "https://www.example.com/canonical"))
        #expect(metadata.openGraphTitle == "OG title")
        #expect(metadata.openGraphDescription == "d")
        #expect(metadata.openGraphSiteName == "Example")
    }

    @Test func canonicalOfAnotherSchemeIsIgnored() {
        let metadata = PageExtractor.extract(
            html: #"<link rel=canonical href="ftp://example.com/x">"#, url: base)
        #expect(metadata.canonicalURL == nil)
    }

    @Test func linksResolvedDedupedAndUnsafeSkipped() {
        let metadata = PageExtractor.extract(
            html: """
                <a href="other.html">Other
                  page</a><a href="/other">x</a><a href=" JavaScript:void(0)">js</a>
                <a href="data:text/plain,x">d</a><a href="vbscript:x">v</a><a href="other.html">dup</a>
                <a href="https://elsewhere.org/?q=a%20b">far</a><a href="#top"><img alt="Top"></a><a>no href</a>
                <a href="mailto:x@example.com">mail</a>
                """, url: base)
        #expect(
            metadata.links == [
                PageLink(url: URL(string: "https://www.example.com/dir/other.html")!, text: "Other page"),
                PageLink(url: URL(string: "https://www.example.com/other")!, text: "x"),
                PageLink(url: URL(string: "https://elsewhere.org/?q=a%20b")!, text: "far"),
                PageLink(url: URL(string: "https://www.example.com/dir/page.html#top")!, text: "Top"),
                PageLink(url: URL(string: "mailto:x@example.com")!, text: "mail"),
            ])
    }

    @Test func baseElementChangesResolution() {
        let metadata = PageExtractor.extract(
            html: #"<base href="https://cdn.example.com/root/"><a href="x">x</a>"#, url: base)
        #expect(metadata.links.first?.url == URL(string: "https://cdn.example.com/root/x"))
    }

    @Test func linkInsideScriptOrCommentIsNotALink() {
        let metadata = PageExtractor.extract(
            html: "<script>'<a href=/a>a</a>'</script><!-- <a href=/b>b</a> --><a href=/c>c</a>", url: base)
        #expect(metadata.links.map(\.url.path) == ["/c"])
    }

    @Test func readerPrefersArticleAndSkipsBoilerplate() {
        let metadata = PageExtractor.extract(
            html: """
                <title>T</title><nav><p>Menu one</p><p>Menu two</p></nav>
                <div><p>Sidebar text that is long enough to count as text but is not the article.</p></div>
                <article><header><p>By someone</p></header><h1>T</h1><p>One.</p><p>Two <em>words</em>.</p></article>
                """, url: base)
        #expect(metadata.reader == ReaderContent(title: "T", paragraphs: ["One.", "Two words."]))
    }

    @Test func readerUsesMainWhenThereIsNoArticle() {
        let metadata = PageExtractor.extract(
            html: "<main><h2>Part</h2><p>Body text.</p></main><p>Out</p>", url: base)
        #expect(metadata.reader?.paragraphs == ["## Part", "Body text."])
    }

    /// Regression (issue 13): the reader dropped headings and lists around the paragraphs.
    @Test func readerKeepsHeadingsAndLists() {
        let metadata = PageExtractor.extract(
            html: """
                <div><h2>Steps</h2><p>Do these in order.</p><ul><li>one<li>two</ul>
                <p>Then count:</p><ol><li>first</li><li>second</li></ol></div>
                """, url: base)
        #expect(
            metadata.reader?.paragraphs == [
                "## Steps", "Do these in order.", "• one", "• two", "Then count:", "1. first", "2. second",
            ])
    }

    @Test func readerUsesLargestParagraphClusterWithImpliedParagraphEnds() {
        let metadata = PageExtractor.extract(
            html: """
                <div id=small><p>Short</div>
                <div id=big><p>First of many<p>Second of many<p>Third of many</div>
                """, url: base)
        #expect(metadata.reader?.paragraphs == ["First of many", "Second of many", "Third of many"])
        #expect(metadata.reader?.plainText == "First of many\n\nSecond of many\n\nThird of many")
    }

    @Test func noReaderForALoneShortParagraph() {
        #expect(PageExtractor.extract(html: "<p>Copyright 2026</p>", url: base).reader == nil)
    }

    @Test(arguments: [("  a \n\t b  ", "a b"), ("", ""), ("x\u{A0}\u{A0}y", "x y")])
    func whitespaceCollapses(input: String, expected: String) {
        #expect(PageExtractor.collapsingWhitespace(input) == expected)
    }
}
