// The make test smoke run of every fuzz target: its seed corpus, then a few thousand mutations from a fixed seed.
import ActivityFuzzing
import ActivityKit
import Foundation
import TestSupport
import Testing

@Suite struct FuzzSmokeTests {
    /// Tests/FuzzCorpus, found from this file so the run does not depend on the working directory.
    static let corpusRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzCorpus").path
    /// Inputs per target beyond the seeds: a few thousand, a second or two each in a debug build.
    static let runs = 3_000

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everySeedAndAFewThousandMutationsHoldTheProperties(_ name: String) async throws {
        try await offPool {
            let target = try #require(FuzzTarget.named(name))
            let seeds = FuzzCorpus.load(directory: Self.corpusRoot + "/" + name)
            #expect(seeds.count >= 5, "the seed corpus of \(name) is in the repository")
            var fuzzer = MutationFuzzer(target: target, seeds: seeds.map(\.bytes), seed: 20_261_201)
            let report = fuzzer.run(runs: Self.runs)
            if let (input, failure) = report.failure {
                let shown =
                    input.count < 400 ? String(decoding: input, as: UTF8.self) : "\(input.count) bytes"
                Issue.record("\(name): \(failure) for input \(report.inputs): \(shown.debugDescription)")
            }
            #expect(report.inputs == seeds.count + Self.runs)
            #expect(report.accepted > 0, "some inputs get past the parser, so the properties are exercised")
        }
    }

    /// The targets fail when a property breaks: a check that cannot fail proves nothing.
    @Test func aBrokenPropertyIsReported() throws {
        let template = try #require(FuzzTarget.named("template"))
        #expect(try template.check(Array("https://example.org/?u={url}".utf8)))
        #expect(try !template.check(Array("{nope}".utf8)), "an unknown placeholder is refused, not a failure")
        let limit = FuzzTarget.expansionLimit(of: try Template("a{url}b{title}"), percentEncoded: true)
        #expect(limit == 2 + 3 * (32 * 1024) + 3 * (4 * 1024))
        let tripwire = FuzzTarget(name: "tripwire", dictionary: ["!"]) { bytes throws(FuzzFailure) in
            if bytes.contains(UInt8(ascii: "!")) { throw FuzzFailure("no exclamation mark", "found one") }
            return true
        }
        var fuzzer = MutationFuzzer(target: tripwire, seeds: [Array("hello".utf8)], seed: 1)
        let report = fuzzer.run(runs: 10_000)
        #expect(report.failure?.failure.property == "no exclamation mark", "the mutator inserts dictionary tokens")
    }
}
