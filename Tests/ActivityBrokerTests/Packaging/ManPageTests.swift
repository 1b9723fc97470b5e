// The man pages under man/: groff finds nothing to warn about, and they document every option the programs take.
import Foundation
import TestSupport
import Testing

@Suite("Man pages")
struct ManPageTests {
    static let pages = ["share.1", "activity-broker.1", "activity-broker-manifest.5"]

    @Test("groff -man -ww formats each page without a warning", arguments: pages)
    func formatsWithoutWarnings(page: String) async throws {
        let run = try await runCommand(
            "groff", ["-man", "-Tutf8", "-ww", "-z", repositoryRoot + "/man/" + page],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(run.succeeded, "\(run.transcript)")
        #expect(run.standardError.isEmpty, "\(page): \(run.standardError)")
    }

    /// The long options a program's `--help` names, e.g. `--extensions-dir`.
    static func longOptions(in text: String) -> Set<String> {
        var options = Set<String>()
        for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
        where word.hasPrefix("--") {
            if word.count > 2 { options.insert(String(word)) }
        }
        return options
    }

    @Test(
        "each page documents every long option of its program's --help",
        arguments: [
            ("share", "share.1"), ("activity-broker", "activity-broker.1"),
        ])
    func documentsEveryOption(program: String, page: String) async throws {
        let help = try await runCommand(try BuiltProducts.executable(program), ["--help"])
        let options = Self.longOptions(in: help.standardOutput + help.standardError)
        #expect(options.contains("--bus"), "\(help.transcript)")
        // In roff a literal hyphen is written \-.
        let source = try String(contentsOfFile: repositoryRoot + "/man/" + page, encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for option in options.sorted() {
            #expect(source.contains(option), "\(page) does not document \(option)")
        }
    }
}
