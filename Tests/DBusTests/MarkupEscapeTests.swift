// MarkupEscape: the one escape behind introspection XML and the browser's reader pages.
import Testing

@testable import DBus

@Suite struct MarkupEscapeTests {
    @Test func theFourMarkupCharactersBecomeEntities() {
        #expect(
            MarkupEscape.escape(#"a & b < c > "d""#, apostrophe: false)
                == "a &amp; b &lt; c &gt; &quot;d&quot;")
    }

    @Test func theApostropheIsEscapedOnlyWhenAsked() {
        #expect(MarkupEscape.escape("it's", apostrophe: true) == "it&apos;s")
        #expect(MarkupEscape.escape("it's", apostrophe: false) == "it's")
    }

    @Test func introspectionEscapesTheApostrophe() {
        #expect(Introspection.escape("a'b&") == "a&apos;b&amp;")
    }
}
