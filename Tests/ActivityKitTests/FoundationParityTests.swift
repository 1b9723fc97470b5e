// ActivityKit's own code where the daemon used Foundation: each held to what Foundation answers.
import Foundation
import Testing

@testable import ActivityKit

@Suite struct FoundationParityTests {
    /// `file:` URLs as `DesktopExec` read them with `URLComponents` (host, percent-decoded path).
    @Test(arguments: [
        "file:///tmp/a%20b.txt", "file://localhost/etc/hosts", "file://LocalHost/etc/hosts",
        "file:///tmp/a b",
        "file:///tmp/é", "file:///tmp/%zz", "file:///tmp/%C3%A9", "file:///tmp/%FF",
        "file://user@localhost:80/x",
        "file:/x/y", "file:x", "file:///a/../b?q#f", "file:///a%2Fb", "file://otherhost/etc/hosts",
        "file://[::1]/x",
        "file:///x|y", "file:///x{y}", "file:///a^b", "file://", "file:", "file:///", "FILE:///upper",
        "file://localhost", "file://local%68ost/x", "file:///a#frag/more", "file:///a?q/more",
    ])
    func fileURLPathIsURLComponentsPath(url: String) {
        let ours = DesktopExec.localPath(ofFileURL: url)
        let foundation = URLComponents(string: url).flatMap { components -> String? in
            let host = components.host ?? ""
            guard host.isEmpty || host.lowercased() == "localhost" else { return nil }
            return components.path.hasPrefix("/") ? components.path : nil
        }
        #expect(ours == foundation, "\(url)")
    }

    /// A UTF-8 byte order mark is dropped, as `String(data:encoding:)` dropped it.
    @Test func desktopEntryDropsAByteOrderMark() throws {
        let text = "[Desktop Entry]\nType=Application\nName=A\nExec=a %u\n"
        let entry = try DesktopEntry(data: [0xEF, 0xBB, 0xBF] + Array(text.utf8), fileName: "a.desktop")
        #expect(entry.groupNames == ["Desktop Entry"])
        #expect(String(data: Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)), encoding: .utf8) == text)
    }

    /// config.json's switch read as `JSONDecoder` read it into `{private_click_measurement: Bool?}`
    /// (a repeated key aside: JSONDecoder took the first, the manifest parser takes the last).
    @Test(arguments: [
        #"{"private_click_measurement": false}"#, #"{"private_click_measurement": true}"#,
        #"{"private_click_measurement": null}"#, #"{"private_click_measurement": "false"}"#,
        #"{"private_click_measurement": 0}"#, #"{"other": false}"#, #"[false]"#, "false", "", "{",
        "\u{FEFF}{\"private_click_measurement\": false}",
    ])
    func attributionSwitchReadsAsJSONDecoderDid(text: String) {
        struct Switch: Decodable {
            let enabled: Bool?
            enum CodingKeys: String, CodingKey { case enabled = "private_click_measurement" }
        }
        let reference = (try? JSONDecoder().decode(Switch.self, from: Data(text.utf8)))?.enabled ?? true
        #expect(AttributionSwitch.isEnabled(configuration: Array(text.utf8)) == reference, "\(text)")
    }

    @Test func timestampIsTheWallClock() {
        let before = Date().timeIntervalSince1970
        let now = Timestamp.now()
        let after = Date().timeIntervalSince1970
        #expect(now.secondsSince1970 >= before - 0.001 && now.secondsSince1970 <= after + 0.001)
        let t0 = Timestamp(secondsSince1970: 1_800_000_000)
        #expect(t0.adding(seconds: 90).seconds(since: t0) == 90)
        #expect(t0 < t0.adding(seconds: 1))
        #expect(t0.description == "2027-01-15T08:00:00Z")
    }
}
