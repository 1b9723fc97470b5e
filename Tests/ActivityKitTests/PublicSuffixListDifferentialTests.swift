// PublicSuffixList beside libpsl: every rule of the system list, as hosts, gets libpsl's registrable domain.
import Foundation
import TestSupport
import Testing

@testable import ActivityKit

/// libpsl (what curl and wget use) and our reading of the same system list, side by side
/// (`scripts/psl-reference.py` calls libpsl through ctypes; run as a child with TestSupport's
/// `ChildProcess`, never Foundation's `Process`, which no other test uses and which brings its own
/// SIGCHLD handling). Hosts are made from every rule:
/// the rule's name, one label under it and two, so each kind of rule (plain, wildcard,
/// exception, in Unicode) is met at and below its own depth.
@Suite struct PublicSuffixListDifferentialTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/psl-reference.py").path

    /// Hosts from every rule of the list at `path`.
    static func hosts(fromListAt path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var hosts: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard var word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                !word.hasPrefix("//")
            else { continue }
            if word.hasPrefix("!") {
                word = word.dropFirst()
            } else if word.hasPrefix("*.") {
                word = word.dropFirst(2)
            }
            guard let name = PublicSuffixList.ascii(word) else { continue }
            hosts += [name, "x-1." + name, "y.x-1." + name]
        }
        return hosts
    }

    /// libpsl's answer for each host, "-" mapped to the host itself (a public suffix, or a
    /// single label: what `registrableDomain(of:)` returns for those).
    static func libpsl(_ hosts: [String]) async throws -> [String] {
        let directory = try TemporaryDirectory(prefix: "psl-hosts")
        defer { directory.remove() }
        let file = directory.file("hosts")
        try hosts.joined(separator: "\n").appending("\n").write(
            toFile: file, atomically: false, encoding: .utf8)
        let run = try await ChildProcess.run("/usr/bin/python3", [script, file], deadline: .seconds(120))
        #expect(run.termination == .exited(0), "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        return zip(hosts, lines).map { $1 == "-" ? $0 : $1 }
    }

    @Test func everyRuleGivesLibpslsRegistrableDomain() async throws {
        let system = try #require(PublicSuffixList.system, "no list at \(PublicSuffixList.systemPath)")
        let hosts = try Self.hosts(fromListAt: PublicSuffixList.systemPath)
        #expect(hosts.count > 15_000)
        let expected = try await Self.libpsl(hosts)
        #expect(expected.count == hosts.count)
        let differences = zip(hosts, expected).filter { system.registrableDomain(of: $0) != $1 }
        #expect(
            differences.isEmpty,
            "\(differences.count) hosts differ, e.g. \(differences.prefix(5).map { "\($0) → ours \(system.registrableDomain(of: $0)), libpsl \($1)" })"
        )
    }
}
