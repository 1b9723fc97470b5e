// What share prints from the broker and providers reaches the terminal without control sequences (issue 11, item 12).
import Foundation
import TestSupport
import Testing

@Suite struct SanitizedOutputTests {
    /// An activity whose name carries an OSC window title, a C1 CSI and a right-to-left override.
    static let manifests = [
        "hostile.json": """
        {"id": "test.hostile", "name": "Evil\\u001b]0;pwned\\u0007 \\u009b2J name \\u202etxt.exe", "category": "share",
         "perform": {"open": "https://hostile.example/?u={url}"}}
        """
    ]

    static let hostileName = "Evil\u{1B}]0;pwned\u{07} \u{9B}2J name \u{202E}txt.exe"

    static func assertClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for scalar: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"] {
            #expect(
                !text.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) printed raw",
                sourceLocation: sourceLocation)
        }
    }

    /// Regression: `share list --json` passed C1 controls and U+202E through raw. They are
    /// `\uXXXX` escapes now, and the JSON still says the same name.
    @Test func listJSONEscapesControlsAndBidiOverrides() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start(), manifests: Self.manifests)
        defer { broker.stopInBackground() }
        let run = try await broker.share(["list", "https://example.org", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        Self.assertClean(run.output)
        #expect(run.output.contains("\\u009b") && run.output.contains("\\u202e"), "\(run.output)")
        let decoded = try #require(
            try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]],
            "\(run.output)")
        let names = decoded.compactMap { $0["name"] as? String }
        #expect(names.contains(Self.hostileName), "\(names)")

        let table = try await broker.share(["list", "https://example.org"])
        Self.assertClean(table.output)
        #expect(table.output.contains("test.hostile"))
    }

    /// Regression: `share explain` printed the broker's text (and the activity's) raw.
    @Test func explainIsSanitized() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start(), manifests: Self.manifests)
        defer { broker.stopInBackground() }
        let offered = try await broker.share(["explain", "test.hostile", "https://example.org"])
        Self.assertClean(offered.output)
        #expect(offered.output.contains("test.hostile"))
        let unknown = try await broker.share([
            "explain", "test.\u{1B}]52;c;ZXZpbA==\u{07}x", "https://example.org",
        ])
        Self.assertClean(unknown.output)
        Self.assertClean(unknown.errors)
    }

    /// The completion helper prints ids from the broker, one a line, sanitized like the rest.
    @Test func completionHelperPrintsCleanIDs() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start(), manifests: Self.manifests)
        defer { broker.stopInBackground() }
        let run = try await broker.share(["__complete-ids"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines.contains("test.hostile"))
        Self.assertClean(run.output)
    }
}
