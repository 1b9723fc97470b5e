// ManifestCheck: each kind of manifest error located at its exact line and column, and unknown-key warnings.

import Foundation
import Testing

@testable import ActivityKit

@Suite struct ManifestCheckTests {
    /// Checks `text` and returns its diagnostics as "LINE:COLUMN severity FIELD: MESSAGE".
    private func findings(_ text: String) -> [String] {
        ManifestCheck.check(Array(text.utf8), fileName: "t.json").diagnostics.map {
            "\($0.line):\($0.column) \($0.severity.rawValue) \($0.field): \($0.message)"
        }
    }

    private let valid = """
        {
          "id": "test.ok",
          "name": "OK",
          "category": "share",
          "perform": {"open": "https://ok.example/?u={url}"}
        }
        """

    @Test func aValidManifestHasNoDiagnosticsAndItsActivity() {
        let result = ManifestCheck.check(Array(valid.utf8), fileName: "t.json")
        #expect(result.diagnostics.isEmpty)
        #expect(result.activity?.id.rawValue == "test.ok")
        #expect(!result.hasErrors)
    }

    // MARK: JSON syntax

    @Test func missingCommaIsLocatedAtTheNextKey() {
        let text = "{\n  \"id\": \"a.b\"\n  \"name\": \"x\"\n}"
        #expect(
            findings(text) == ["3:3 error : not valid JSON: expected ',' or '}' in an object, found '\"'"])
    }

    @Test func trailingCommaIsLocatedAtTheClosingBrace() {
        let text = "{\n  \"id\": \"a.b\",\n}"
        #expect(findings(text) == ["3:1 error : not valid JSON: expected a key in double quotes, found '}'"])
    }

    @Test func anUnclosedStringIsLocatedAtItsOpeningQuote() {
        let text = "{\n  \"id\": \"a.b\n}"
        // The raw newline inside the string is reported where it is.
        #expect(
            findings(text) == [
                "2:13 error : not valid JSON: a control character in a string (write it as an escape such as \\n)"
            ])
        #expect(findings("{\"id\": \"abc") == ["1:8 error : not valid JSON: the string is not closed"])
    }

    @Test func aBadLiteralAndABadNumberAndABadEscape() {
        #expect(
            findings("{\n\"priority\": tru\n}") == [
                "2:13 error : not valid JSON: expected a value, found 't'"
            ])
        #expect(
            findings("{\"priority\": 01}") == [
                "1:14 error : not valid JSON: not a valid number (digits, no leading zeros)"
            ])
        #expect(
            findings("{\"name\": \"a\\qb\"}") == [
                "1:12 error : not valid JSON: an unknown escape in a string"
            ])
        #expect(
            findings("{\"name\": \"\\u12G4\"}") == [
                "1:11 error : not valid JSON: a \\u escape needs four hex digits and a valid code point"
            ])
    }

    @Test func textAfterTheDocumentAndAnEmptyValue() {
        #expect(findings("{}\n}") == ["2:1 error : not valid JSON: unexpected '}' after the top-level value"])
        #expect(
            findings("{\"id\":") == [
                "1:7 error : not valid JSON: expected a value, found the end of the file"
            ])
    }

    @Test func columnsCountCharactersNotBytes() {
        // "é" is two bytes in UTF-8 and one column.
        #expect(
            findings("{\"name\": \"é\" \"x\"}") == [
                "1:14 error : not valid JSON: expected ',' or '}' in an object, found '\"'"
            ])
    }

    // MARK: Field errors

    @Test func aWrongTypePointsAtTheValue() {
        let text = """
            {
              "id": "test.x",
              "name": 42,
              "category": "share",
              "perform": {"open": "https://x.example/?u={url}"}
            }
            """
        #expect(findings(text) == ["3:11 error name: expected a string, found an integer"])
    }

    @Test func aBadValueDeepInsidePointsAtThatElement() {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "action",
              "perform": {"candidates": [
                {"exec": ["wl-copy"]},
                {"exec": ["xclip", 7]}
              ]}
            }
            """
        #expect(
            findings(text) == [
                "5:24 error perform.candidates[1].exec[1]: expected a string, found an integer"
            ])
    }

    @Test func aMissingRequiredKeyPointsAtTheEnclosingObject() {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "share",
              "perform": {"dbus": {"name": "org.example.App"}}
            }
            """
        #expect(findings(text) == ["3:23 error perform.dbus.path: is required"])
        #expect(findings("{\"name\": \"X\"}") == ["1:1 error id: is required"])
    }

    @Test func anUnknownNestedKeyIsAnErrorAtTheKey() {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "share",
              "match": {"schemes": ["https"], "host": ["a.example"]},
              "perform": {"open": "https://x.example/?u={url}"}
            }
            """
        #expect(
            findings(text) == ["3:35 error match.host: unknown key (expected hosts, path_prefixes, schemes)"])
    }

    @Test func aRuleErrorFromTheModelKeepsItsFieldPath() {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "share",
              "match": {"hosts": []},
              "perform": {"open": "https://x.example/?u={url}"}
            }
            """
        #expect(
            findings(text) == ["3:22 error match.hosts: must not be empty (leave the key out for any host)"])
    }

    @Test func aBadCategoryAndABadTopLevelType() {
        let text = "{\"id\": \"test.x\", \"name\": \"X\",\n \"category\": \"shar\", \"perform\": {}}"
        #expect(findings(text) == ["2:14 error category: 'shar' is not 'share' or 'action'"])
        #expect(findings("[1]") == ["1:1 error : expected a JSON object at the top level, found an array"])
    }

    // MARK: Warnings

    @Test func unknownTopLevelKeysAreWarningsWithASuggestion() {
        let text = """
            {
              "id": "test.x", "name": "X", "category": "share",
              "catgory": "action",
              "x-note": "mine",
              "perform": {"open": "https://x.example/?u={url}"}
            }
            """
        let result = ManifestCheck.check(Array(text.utf8), fileName: "t.json")
        #expect(result.activity != nil, "warnings do not make the file invalid")
        #expect(!result.hasErrors)
        #expect(
            findings(text) == [
                "3:3 warning : unknown key 'catgory' (did you mean 'category'?)",
                "4:3 warning : unknown key 'x-note' (ignored)",
            ])
    }

    @Test func warningsAndTheErrorComeInFileOrder() {
        let text = "{\"nmae\": \"X\",\n \"id\": 5}"
        #expect(
            findings(text) == [
                "1:2 warning : unknown key 'nmae' (did you mean 'name'?)",
                "2:8 error id: expected a string, found an integer",
            ])
    }

    @Test func anEmptyFileIsAMaskNotAnError() {
        let result = ManifestCheck.check(Array(" \n".utf8), fileName: "t.json")
        #expect(result.isMask)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func theCheckAgreesWithTheBrokersDecoder() throws {
        // Same verdict as Manifest.decode on each shipped-style case: valid and broken.
        for text in [valid, "{\"id\": 1}", "{"] {
            let decoded = (try? Manifest.decode(Array(text.utf8), fileName: "t.json", origin: .user)) != nil
            #expect((ManifestCheck.check(Array(text.utf8), fileName: "t.json").activity != nil) == decoded)
        }
    }

    @Test func offsetsFindTheLastOfRepeatedKeysAndArrayElements() throws {
        let data = Array("{\"a\": 1, \"b\": [10, {\"c\": true}], \"a\": 2}".utf8)
        let a = try #require(JSONValue.offsets(of: [.key("a")], in: data))
        #expect(a.key == 33 && a.value == 38)
        let c = try #require(JSONValue.offsets(of: [.key("b"), .index(1), .key("c")], in: data))
        #expect(c.value == 25)
        #expect(JSONValue.offsets(of: [.key("b"), .index(2)], in: data) == nil)
        #expect(JSONValue.offsets(of: [.key("zz")], in: data) == nil)
    }

    @Test func parseIsUnchangedForTheBroker() {
        // The fast path still answers nil on bad input and a tree on good input.
        #expect(JSONValue.parse(Array("{\"a\": [1, 2.5, \"x\", null, false]}".utf8)) != nil)
        #expect(JSONValue.parse(Array("{\"a\": }".utf8)) == nil)
    }
}
