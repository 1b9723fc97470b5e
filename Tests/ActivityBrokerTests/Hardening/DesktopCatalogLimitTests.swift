// Review items 1–3 through the real broker: a 1 MiB mimeapps.list, changes in ~/.config that are not mimeapps.list, forgotten problems of deleted files.
import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Hardening: desktop entries, mimeapps.list and their watches")
struct DesktopCatalogLimitTests {
    static let url = "https://example.org/desktop-limits"

    static func entry(_ name: String) -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=true %u\nMimeType=x-scheme-handler/https;\n"
    }

    /// The lines of the broker's debug log that start a reload.
    static func reloads(in log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains("reading the static catalog again") }
    }

    @Test(
        "A 1 MiB mimeapps.list of 100k ids for one scheme: the broker starts, keeps the first ids, says so once"
    )
    func aMebibyteMimeappsListIsCapped() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write(Self.entry("Alpha"), to: "data/applications/org.test.alpha.desktop")
        var ids = ""
        var n = 0
        // Two lines of ~510 KiB: the whole file stays under the 1 MiB read limit.
        while ids.utf8.count < 510 << 10 {
            ids += "a\(n).desktop;"
            n += 1
        }
        try f.write(
            "[Added Associations]\nx-scheme-handler/https=\(ids)\n"
                + "[Default Applications]\nx-scheme-handler/https=\(ids)org.test.alpha.desktop\n",
            to: "config/mimeapps.list")
        #expect(
            try FileManager.default.attributesOfItem(atPath: "\(f.root)/config/mimeapps.list")[.size] as? Int
                ?? 0 > 1_000_000)
        try await f.startBroker()
        #expect(try await f.offered(Self.url).contains("desktop.org.test.alpha"))
        let lines = f.log.split(separator: "\n").filter { $0.contains("desktop ids in") }
        #expect(lines.count == 1, "\(f.log.suffix(2000))")
        #expect(lines.first?.contains("config/mimeapps.list") == true)
        #expect(lines.first?.contains("Added Associations/x-scheme-handler/https") == true)
    }

    @Test("A mimeapps.list over the 1 MiB read limit is named in the log, not silently taken as empty")
    func anOversizedMimeappsListIsLogged() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write(Self.entry("Alpha"), to: "data/applications/org.test.alpha.desktop")
        let padding = String(
            repeating: "# a comment to pass the read limit of mimeapps.list files\n", count: 20_000)
        try f.write("[Default Applications]\n" + padding, to: "config/mimeapps.list")
        try await f.startBroker()
        #expect(try await f.offered(Self.url).contains("desktop.org.test.alpha"))
        // The line is written when the catalog is read; it reaches the log through a pipe our
        // reader thread drains, which under load can come after the answer above.
        try await waitUntil("the oversized mimeapps.list logged") { f.log.contains("config/mimeapps.list: larger than") }
    }

    @Test("Writing another file in ~/.config reloads nothing; writing mimeapps.list there does")
    func onlyMimeappsNamesInConfigReload() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write(Self.entry("Alpha"), to: "data/applications/org.test.alpha.desktop")
        try f.write("", to: "config/keep")
        try await f.startBroker()
        let config = "\(f.root)/config"

        // In order on one inotify descriptor: had the other file counted, the reload the
        // manifest causes (or one before it) would name the config directory.
        try f.write("[General]\nx=1\n", to: "config/someprogram.conf")
        try f.write(TestManifest.json(id: "org.test.flag"), to: "data/activity-broker/extensions/flag.json")
        try await waitUntil("the manifest's reload") {
            Self.reloads(in: f.log).contains { $0.contains(f.userExtensions) }
        }
        #expect(!Self.reloads(in: f.log).contains { $0.contains(config) }, "\(Self.reloads(in: f.log))")

        try f.write(
            "[Default Applications]\nx-scheme-handler/https=org.test.alpha.desktop\n",
            to: "config/mimeapps.list")
        try await waitUntil("mimeapps.list's reload") {
            Self.reloads(in: f.log).contains { $0.contains(config) }
        }
    }

    @Test("A broken manifest deleted and written again is logged again: deleted files are forgotten")
    func aDeletedBrokenFileIsForgotten() async throws {
        let f = try await BrokerFixture()
        let broken = "data/activity-broker/extensions/broken.json"
        func lines() -> Int {
            f.log.split(separator: "\n").filter { $0.contains("skipped") && $0.contains("broken.json") }.count
        }
        try f.write("{ not json", to: broken)
        try await waitUntil("the first line") { lines() == 1 }
        try FileManager.default.removeItem(atPath: "\(f.root)/\(broken)")
        try f.write(TestManifest.json(id: "org.test.flag1"), to: "data/activity-broker/extensions/flag1.json")
        try await waitUntil("the deletion's reload") { try await f.registered()["org.test.flag1"] != nil }
        try f.write("{ not json", to: broken)
        try await waitUntil("the second line") { lines() == 2 }
    }
}
