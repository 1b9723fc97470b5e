// NumberedPromptTests: the dumb-terminal prompt driven through pipes.

import Foundation
import Glibc
import Testing

@testable import TerminalUI

@Suite struct NumberedPromptTests {
    static let prompt = NumberedPrompt(
        model: ActivityPickerModel(
            header: .init(title: "Example \u{1B}[31mpage", url: "https://example.com/"),
            entries: [
                .init(id: "copy", title: "Copy Link", group: .action),
                .init(id: "telegram", title: "Telegram", glyph: "✈", group: .share),
                .init(id: "mail", title: "Mail", group: .share),
            ]))

    /// Runs the prompt with `input` already written and the write end closed; returns result and output.
    static func run(_ input: String, closeInput: Bool = true) -> (PickerResult, String) {
        var inFDs: [Int32] = [-1, -1]
        var outFDs: [Int32] = [-1, -1]
        precondition(pipe(&inFDs) == 0 && pipe(&outFDs) == 0)
        defer { close(inFDs[0]); close(outFDs[0]) }
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(inFDs[1], $0.baseAddress, $0.count) }
        close(inFDs[1])
        let result = prompt.run(input: inFDs[0], output: outFDs[1])
        close(outFDs[1])
        let output = FileHandle(fileDescriptor: outFDs[0], closeOnDealloc: false).readDataToEndOfFile()
        return (result, String(decoding: output, as: UTF8.self))
    }

    @Test func listsNumberedEntriesSharesFirst() {
        let (_, output) = Self.run("\n")
        #expect(
            output.hasPrefix(
                """
                Example page
                https://example.com/
                Share:
                  1. ✈ Telegram
                  2. Mail
                Actions:
                  3. Copy Link
                Choose 1-3 (Enter to cancel): 
                """))
        #expect(!output.contains("\u{1B}"))
    }

    @Test func numberChooses() {
        #expect(Self.run("2\n").0 == .chosen("mail"))
        #expect(Self.run("  3 \r\n").0 == .chosen("copy"))
    }

    @Test func invalidAnswersAreAskedAgain() {
        let (result, output) = Self.run("x\n7\n0\n1\n")
        #expect(result == .chosen("telegram"))
        #expect(output.components(separatedBy: "Choose 1-3 (Enter to cancel): ").count == 5)
        #expect(output.contains("Not a choice: x."))
        #expect(output.contains("Not a choice: 7."))
    }

    @Test func emptyLineOrQCancels() {
        #expect(Self.run("\n2\n").0 == .cancelled)
        #expect(Self.run("q\n").0 == .cancelled)
    }

    @Test func endOfInputCancels() {
        #expect(Self.run("").0 == .cancelled)
        #expect(Self.run("x\n").0 == .cancelled)
    }

    @Test func lastLineWithoutNewlineCounts() {
        #expect(Self.run("2").0 == .chosen("mail"))
    }

    @Test func readsOnlyOneLine() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = Array("first\nsecond\n".utf8).withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        #expect(NumberedPrompt.readLine(from: fds[0]) == "first")
        #expect(NumberedPrompt.readLine(from: fds[0]) == "second")
        #expect(NumberedPrompt.readLine(from: fds[0]) == nil)
    }
}
