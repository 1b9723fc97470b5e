// usage.json by hand: the same bytes JSONEncoder wrote, files of either read alike, corrupt ones refused.

import Foundation
import Testing

@testable import ActivityKit

struct UsageFileFormatTests {
    /// `UsageScores` as it was stored through `Codable` with Foundation's `Date`.
    struct ReferenceEntry: Codable {
        var score: Double
        var lastUsed: Date
    }

    struct ReferenceScores: Codable {
        var entries: [String: ReferenceEntry]
    }

    /// JSONEncoder as the broker configured it before `UsageFileFormat`.
    static func reference(_ scores: UsageScores) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let entries = scores.entries.mapValues {
            ReferenceEntry(
                score: $0.score, lastUsed: Date(timeIntervalSince1970: $0.lastUsed.secondsSince1970))
        }
        return Array(try encoder.encode(ReferenceScores(entries: entries)))
    }

    static func referenceDecode(_ data: [UInt8]) throws -> UsageScores {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let read = try decoder.decode(ReferenceScores.self, from: Data(data))
        return UsageScores(
            entries: read.entries.mapValues {
                UsageEntry(
                    score: $0.score, lastUsed: Timestamp(secondsSince1970: $0.lastUsed.timeIntervalSince1970))
            })
    }

    static let sample = UsageScores(entries: [
        "org.example.b": UsageEntry(score: 1, lastUsed: Timestamp(secondsSince1970: 1_764_620_164)),
        "org.example.a": UsageEntry(score: 3.25, lastUsed: Timestamp(secondsSince1970: 951_782_400)),  // 2000-02-29
        "org.example.c/slash \"q\"": UsageEntry(
            score: 0.001, lastUsed: Timestamp(secondsSince1970: 4_102_444_799)),
        "org.example.d": UsageEntry(score: 1e-7, lastUsed: Timestamp(secondsSince1970: 0)),
    ])

    @Test func writesTheBytesJSONEncoderWrote() throws {
        #expect(
            String(decoding: try UsageFileFormat.encode(Self.sample), as: UTF8.self)
                == String(decoding: try Self.reference(Self.sample), as: UTF8.self))
        let empty = UsageScores()
        #expect(try Self.referenceDecode(try UsageFileFormat.encode(empty)) == empty)
    }

    @Test func readsWhatEitherWroteToTheSecond() throws {
        #expect(try UsageFileFormat.decode(try Self.reference(Self.sample)) == Self.sample)
        #expect(try Self.referenceDecode(try UsageFileFormat.encode(Self.sample)) == Self.sample)
        // A time with a fraction is written to its second, as JSONEncoder did.
        let fractional = UsageScores(entries: [
            "x": UsageEntry(score: 2, lastUsed: Timestamp(secondsSince1970: 1_000.75))
        ])
        let read = try UsageFileFormat.decode(try UsageFileFormat.encode(fractional))
        #expect(read.entries["x"]?.lastUsed == Timestamp(secondsSince1970: 1_000))
        #expect(try Self.referenceDecode(try Self.reference(fractional)) == read)
    }

    @Test func readsOffsetsAndFractionsAndCompactFiles() throws {
        let text =
            #"{"entries":{"a":{"score":2,"lastUsed":"2025-12-01T21:16:04+01:00"},"b":{"lastUsed":"2025-12-01T20:16:04.5Z","score":1.5,"extra":true}}}"#
        let scores = try UsageFileFormat.decode(Array(text.utf8))
        #expect(
            scores.entries["a"] == UsageEntry(score: 2, lastUsed: Timestamp(secondsSince1970: 1_764_620_164)))
        #expect(
            scores.entries["b"]
                == UsageEntry(score: 1.5, lastUsed: Timestamp(secondsSince1970: 1_764_620_164.5)))
    }

    @Test func civilDatesRoundTripAcrossCenturiesAndLeapDays() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = CivilCalendar.civil(fromDays: days)
            #expect(CivilCalendar.days(fromCivil: y, m, d) == days)
        }
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    /// `Int(_:)` of these trapped: a time no date holds is written as its number.
    @Test func aTimeNoDateHoldsIsItsNumber() {
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: .infinity)) == "inf")
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: -.infinity)) == "-inf")
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: .nan)) == "nan")
        #expect(UsageFileFormat.iso8601(Timestamp(secondsSince1970: 1e300)) == "1e+300")
    }

    @Test(arguments: [
        "", "[]", #"{"entries":[]}"#, #"{"other":{}}"#, #"{"entries":{"a":1}}"#,
        #"{"entries":{"a":{"score":"1","lastUsed":"2026-12-01T20:16:04Z"}}}"#,
        #"{"entries":{"a":{"score":1}}}"#,
        #"{"entries":{"a":{"score":1,"lastUsed":"2026-13-01T20:16:04Z"}}}"#,
        #"{"entries":{"a":{"score":1,"lastUsed":"2026-12-01 20:16:04"}}}"#,
        #"{"entries":{"a":{"score":1,"lastUsed":"2026-12-01T20:16:04Zjunk"}}}"#,
        "{\"entries\": {\"org.test.c\": [not json at all",
    ])
    func refusesWhatIsNotAUsageFile(_ text: String) {
        #expect(throws: UsageFileFormat.Problem.self) { try UsageFileFormat.decode(Array(text.utf8)) }
    }

    @Test func refusesToWriteANumberJSONHasNot() {
        #expect(throws: UsageFileFormat.Problem.self) {
            try UsageFileFormat.encode(
                UsageScores(entries: ["a": UsageEntry(score: .nan, lastUsed: Timestamp.now())]))
        }
    }
}
