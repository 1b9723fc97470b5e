// HTMLScannerTests: tokens, attributes, entities, comments and raw-text elements.

import Testing

@testable import TextPages

@Suite("HTML scanner")
struct HTMLScannerTests {
    @Test func tagsAttributesAndText() {
        let tokens = HTMLScanner.tokens(#"<A HREF="/x" class='c d' data-n=5 hidden>Go</a><br/>"#)
        #expect(
            tokens == [
                .startTag(
                    name: "a",
                    attributes: [
                        HTMLAttribute(name: "href", value: "/x"), HTMLAttribute(name: "class", value: "c d"),
                        HTMLAttribute(name: "data-n", value: "5"), HTMLAttribute(name: "hidden", value: ""),
                    ], selfClosing: false),
                .text("Go"), .endTag(name: "a"), .startTag(name: "br", attributes: [], selfClosing: true),
            ])
    }

    @Test func unquotedAttributeEndsAtWhitespaceOrTagEnd() {
        let tokens = HTMLScanner.tokens("<a href=/page?a=1&amp;b=2 title=x>t</a>")
        guard case .startTag(_, let attributes, _) = tokens.first else {
            Issue.record("no start tag")
            return
        }
        #expect(attributes.value(of: "href") == "/page?a=1&b=2")
        #expect(attributes.value(of: "title") == "x")
    }

    @Test func duplicateAttributeKeepsTheFirst() {
        let tokens = HTMLScanner.tokens(#"<a href="/one" HREF="/two">"#)
        guard case .startTag(_, let attributes, _) = tokens.first else {
            Issue.record("no start tag")
            return
        }
        #expect(attributes == [HTMLAttribute(name: "href", value: "/one")])
    }

    @Test(arguments: [
        ("a &amp; b", "a & b"), ("&lt;tag&gt;", "<tag>"), ("&quot;q&quot;", "\"q\""), ("it&#39;s", "it's"),
        ("it&#x27;s", "it's"), ("&#X41;&#66;", "AB"), ("&#8364;", "€"), ("&#x1F600;", "😀"),
        ("&#0;", "\u{FFFD}"),
        ("&#xD800;", "\u{FFFD}"), ("&#x110000;", "\u{FFFD}"), ("&#150;", "\u{2013}"), ("&nbsp;", "\u{A0}"),
        ("&unknown; &", "&unknown; &"), ("&amp no semicolon", "& no semicolon"), ("&#65x", "Ax"),
        ("caf&eacute;", "café"), ("&", "&"), ("&#;", "&#;"),
    ])
    func entities(input: String, expected: String) {
        #expect(HTMLEntities.decode(input) == expected)
    }

    @Test func legacyEntityInAttributeBeforeEqualsStaysLiteral() {
        #expect(HTMLEntities.decode("?a=1&copy=2", inAttribute: true) == "?a=1&copy=2")
        #expect(HTMLEntities.decode("?a=1&copy=2", inAttribute: false) == "?a=1©=2")
    }

    @Test func commentsAreTokensAndHideMarkup() {
        let tokens = HTMLScanner.tokens("a<!-- <b>not a tag</b> -->c<!---->d")
        #expect(tokens == [.text("a"), .comment(" <b>not a tag</b> "), .text("c"), .comment(""), .text("d")])
    }

    @Test func unterminatedCommentRunsToTheEnd() {
        #expect(HTMLScanner.tokens("x<!-- open") == [.text("x"), .comment(" open")])
    }

    @Test func scriptAndStyleContentIsSkipped() {
        let tokens = HTMLScanner.tokens(
            "<script>if (a < b) document.write('<a href=x>y</a>')</SCRIPT >after<style>p{}</style>")
        #expect(
            tokens == [
                .startTag(name: "script", attributes: [], selfClosing: false), .endTag(name: "script"),
                .text("after"), .startTag(name: "style", attributes: [], selfClosing: false),
                .endTag(name: "style"),
            ])
    }

    @Test func scriptEndTagNeedsADelimiter() {
        let tokens = HTMLScanner.tokens("<script>x = '</scripty>'</script>z")
        #expect(tokens.contains(.text("z")))
        #expect(!tokens.contains(.endTag(name: "scripty")))
    }

    @Test func titleContentIsTextEvenWhenItLooksLikeMarkup() {
        let tokens = HTMLScanner.tokens("<title>a <b> &amp; c</title>")
        #expect(tokens[1] == .text("a <b> & c"))
        #expect(tokens[2] == .endTag(name: "title"))
    }

    @Test func strayLessThanIsText() {
        let text = HTMLScanner.tokens("1 < 2 and 3 <= 4").compactMap { token -> String? in
            if case .text(let text) = token { return text }
            return nil
        }.joined()
        #expect(text == "1 < 2 and 3 <= 4")
    }

    @Test func doctypeAndProcessingInstructionsAreSkipped() {
        #expect(HTMLScanner.tokens("<!DOCTYPE html><?xml version='1.0'?>x") == [.text("x")])
    }

    @Test func cutOffTagIsDropped() {
        #expect(HTMLScanner.tokens("text<a href='x") == [.text("text")])
    }

    @Test func invalidUTF8BecomesReplacementCharacter() {
        let tokens = Array(HTMLScanner(bytes: [0x61, 0xFF, 0x62]))
        #expect(tokens == [.text("a\u{FFFD}b")])
    }
}
