// `share attributions`: the listing read from the user's store file, and --clear through the broker.
import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import ShareCLI

@Suite("share attributions")
struct AttributionsCommandTests {
    /// A click that expires in 2999 and a report, as the broker writes them.
    static let file = """
        {"version":1,"attributions":[{"kind":"click","source_site":"ads.example","destination_site":"shop.example","source_id":1,"expires":"2999-01-08"},{"kind":"report","source_site":"ads.example","destination_site":"books.example","source_id":2,"trigger_data":9,"priority":4,"send_after":"2999-01-03","attempts":0}]}

        """

    @Test("Arguments: --json and --clear, nothing else")
    func arguments() throws {
        #expect(
            try ShareArguments.parse(["attributions"]).invocation == .attributions(json: false, clear: false))
        #expect(
            try ShareArguments.parse(["attributions", "--json"]).invocation
                == .attributions(json: true, clear: false))
        #expect(
            try ShareArguments.parse(["attributions", "--clear"]).invocation
                == .attributions(json: false, clear: true))
        #expect(throws: ShareUsageError.self) { try ShareArguments.parse(["attributions", "--title", "x"]) }
        #expect(throws: ShareUsageError.self) { try ShareArguments.parse(["attributions", "extra"]) }
    }

    @Test("The listing (JSON and text) comes from the store file; --clear empties it through the broker")
    func listAndClear() async throws {
        let broker = try await shareTestBroker()
        let path = broker.environment["XDG_STATE_HOME"]! + "/activity-broker/attribution.json"
        try AtomicFile.write(Array(Self.file.utf8), to: path)
        let json = try await broker.share(["attributions", "--json"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(
            json.lines == [
                #"[{"kind":"click","source_site":"ads.example","destination_site":"shop.example","source_id":1,"expires":"2999-01-08"},"#
                    + #"{"kind":"report","source_site":"ads.example","destination_site":"books.example","source_id":2,"trigger_data":9,"priority":4,"send_after":"2999-01-03"}]"#
            ])
        let text = try await broker.share(["attributions"])
        #expect(
            text.lines.count == 2 && text.lines[0].hasPrefix("click")
                && text.lines[1].contains("trigger data 9"))

        // The broker read the file at start? It did not exist then: restart so it holds the data.
        try await broker.restart()
        let clear = try await broker.share(["attributions", "--clear"])
        #expect(clear.status == 0, "\(clear.errors)")
        #expect(clear.lines == ["Click measurement data cleared."])
        let after = try await broker.share(["attributions", "--json"])
        #expect(after.lines == ["[]"])
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == #"{"version":1,"attributions":[]}"# + "\n")
        let none = try await broker.share(["attributions"])
        #expect(none.lines == ["No pending clicks or reports."])
    }

    @Test("--clear --json printed nothing when it succeeded: it prints {\"cleared\":true}")
    func clearWithJSONPrintsWhatHappened() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let path = broker.environment["XDG_STATE_HOME"]! + "/activity-broker/attribution.json"
        try AtomicFile.write(Array(Self.file.utf8), to: path)
        try await broker.restart()
        let clear = try await broker.share(["attributions", "--clear", "--json"])
        #expect(clear.status == 0, "\(clear.errors)")
        #expect(clear.lines == [#"{"cleared":true}"#])
        let object = try JSONSerialization.jsonObject(with: Data(clear.output.utf8)) as? [String: Bool]
        #expect(object == ["cleared": true])
        let after = try await broker.share(["attributions", "--json"])
        #expect(after.lines == ["[]"])
    }
}
