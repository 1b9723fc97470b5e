// TextSanitizerTests: escape sequences and controls removed; DisplayWidth clipping.

import Testing

@testable import TerminalUI

/// One sanitizer case; described by its name only, so test logs never print the raw
/// escape sequences (which would act on the terminal of whoever runs the tests).
struct SanitizerCase: Sendable, CustomTestStringConvertible {
    var input: String
    var expected: String
    var name: String
    var testDescription: String { name }
}

@Suite struct TextSanitizerTests {
    static let cases: [SanitizerCase] = [
        SanitizerCase(input: "Plain title", expected: "Plain title", name: "plain text kept"),
        SanitizerCase(input: "Red\u{1B}[31m text\u{1B}[0m", expected: "Red text", name: "SGR removed"),
        SanitizerCase(input: "a\u{1B}[2J\u{1B}[Hb", expected: "ab", name: "clear screen removed"),
        SanitizerCase(input: "x\u{1B}]0;pwned\u{07}y", expected: "xy", name: "OSC title with BEL removed"),
        SanitizerCase(
            input: "x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\y", expected: "xlinky",
            name: "OSC 8 hyperlink with ST removed"),
        SanitizerCase(input: "x\u{1B}Pdevice\u{1B}\\y", expected: "xy", name: "DCS removed"),
        SanitizerCase(input: "x\u{1B}(By", expected: "xy", name: "charset designation removed"),
        SanitizerCase(input: "x\u{1B}cy", expected: "xy", name: "RIS removed"),
        SanitizerCase(input: "x\u{9B}31my", expected: "xy", name: "8-bit CSI removed"),
        SanitizerCase(input: "x\u{9D}0;t\u{9C}y", expected: "xy", name: "8-bit OSC removed"),
        SanitizerCase(input: "x\u{85}\u{8D}y", expected: "xy", name: "C1 controls removed"),
        SanitizerCase(
            input: "a\u{07}b\u{08}c\u{00}d\u{7F}e", expected: "abcde", name: "C0 controls and DEL removed"),
        SanitizerCase(
            input: "line1\nline2\r\tend", expected: "line1 line2  end",
            name: "whitespace controls become spaces"),
        SanitizerCase(
            input: "x\u{1B}]0;unterminated", expected: "x", name: "unterminated OSC swallows the rest"),
        SanitizerCase(input: "x\u{1B}", expected: "x", name: "trailing ESC removed"),
        SanitizerCase(
            input: "https://example.com/\u{202E}gnp.exe", expected: "https://example.com/gnp.exe",
            name: "bidi override removed"),
        SanitizerCase(
            input: "a\u{2066}b\u{2069}c\u{200F}", expected: "abc", name: "bidi isolates and marks removed"),
        SanitizerCase(input: "Ünïcödé 日本 😀", expected: "Ünïcödé 日本 😀", name: "printable Unicode kept"),
    ]

    @Test(arguments: cases)
    func sanitizes(_ example: SanitizerCase) {
        // Compare escaped forms so a failure message cannot carry raw escapes either.
        let result = TextSanitizer.sanitize(example.input)
        #expect(result.debugDescription == example.expected.debugDescription)
    }

    @Test func resultNeverContainsControls() {
        let nasty = "\u{1B}[\u{1B}]\u{9B}\u{1B}[?1049h\u{1B}[6n\u{90}q\u{9C}\u{1B}\u{1B}[[A\u{0}"
        let result = TextSanitizer.sanitize(nasty)
        #expect(!result.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
    }

    @Test func truncation() {
        #expect(DisplayWidth.truncate("hello", toWidth: 10) == "hello")
        #expect(DisplayWidth.truncate("hello world", toWidth: 6) == "hello…")
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 6) == "日本…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", toWidth: 6)) <= 6)
        #expect(DisplayWidth.truncate("hello", toWidth: 0) == "")
        #expect(DisplayWidth.pad("ab", toWidth: 4) == "ab  ")
    }
}

/// JSON spelling of the characters `sanitize` removes (issue 11, item 12).
@Suite struct TextSanitizerJSONTests {
    @Test func unsafeScalarsBecomeEscapes() {
        let json = "{\"name\":\"a\u{9B}b\u{202E}c\u{2028}d\u{7F}e\"}"
        #expect(TextSanitizer.escapingJSON(json) == #"{"name":"a\u009bb\u202ec\u2028d\u007fe"}"#)
    }

    @Test func safeJSONIsUnchanged() {
        let json = "{\n\t\"name\":\"Café 日本 \\u001b\",\r\n\"n\":1}"
        #expect(TextSanitizer.escapingJSON(json) == json)
    }

    @Test func everyRemovedScalarIsUnsafe() {
        for value: UInt32 in [0x00, 0x07, 0x1B, 0x7F, 0x85, 0x9B, 0x9F, 0x200E, 0x202E, 0x2066, 0x2069] {
            #expect(TextSanitizer.isUnsafe(Unicode.Scalar(value)!))
        }
        #expect(!TextSanitizer.isUnsafe("a"))
        #expect(!TextSanitizer.isUnsafe("日"))
    }
}
