// Issue 11, items 3, 7 and 14: the static catalog through the real broker — reload off the loop,
// desktop entries bounded through symlinks, file names printed safely in the log.
import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Hardening: the static catalog")
struct CatalogHardeningTests {
    static let url = "https://example.org/catalog"

    @Test(
        "Item 3: while a big catalog is read again, the broker keeps serving calls; the result is applied after"
    )
    func reloadIsOffTheLoop() async throws {
        let f = try await BrokerFixture(start: false)
        let directory = f.userExtensions
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Plain writes: the broker is not running yet, so nothing can see a half-written file.
        for n in 0..<5_000 {
            let json = TestManifest.json(id: "org.test.bulk\(n)", match: #"{"schemes": ["bulk"]}"#)
            try Self.writePlain(json, to: "\(directory)/bulk\(n).json")
        }
        try await f.startBroker()
        let app = try f.bus.connect()

        // Calls keep coming while the files are read: eight callers each call again as soon as
        // answered, so the broker has calls queued however short the reload is (5,000 files
        // take tens of ms on every core). Each registration logs a line; the log then shows, in
        // the broker's own order, whether a call was served during the reload. On a machine so
        // loaded that the callers get no turn during one reload, the next reload gets its
        // chance: up to five, each started by a new manifest; a loop blocked by the reading
        // serves no call in any of them.
        let stop = Locked(false)
        let callers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        var round = 0
                        while !stop.value {
                            round += 1
                            try await f.register("org.test.tick\(n)", name: "Tick \(round)", on: app)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var served = false
        for attempt in 1...5 where !served {
            try f.write(
                TestManifest.json(id: "org.test.fresh\(attempt)"),
                to: "data/activity-broker/extensions/fresh\(attempt).json")
            try await waitUntil("reload \(attempt) to be applied", deadline: .seconds(60)) {
                Self.reloadWindows(in: f.log).count >= attempt
            }
            served = Self.reloadWindows(in: f.log).contains { window in
                window.contains { $0.contains("registered org.test.tick") }
            }
        }
        stop.withLock { $0 = true }
        try await callers.value
        #expect(served, "no call was served while the catalog was read, in five reloads")
        try await waitUntil("the new manifest", deadline: .seconds(60)) {
            try await f.offered(Self.url).contains("org.test.fresh1")
        }
    }

    /// The log lines between the start of each reload and its result, for the reloads whose
    /// result is logged.
    static func reloadWindows(in log: String) -> [[Substring]] {
        let lines = log.split(separator: "\n")
        var windows: [[Substring]] = []
        var start: Int?
        for (index, line) in lines.enumerated() {
            if line.contains("reading the static catalog again") {
                start = index
            } else if let begun = start,
                line.contains("static activities reloaded")
                    || line.contains("the static catalog is unchanged")
            {
                windows.append(Array(lines[begun..<index]))
                start = nil
            }
        }
        return windows
    }

    @Test("Item 7: a desktop entry that is a symlink to a file over 1 MiB is skipped, not read")
    func desktopSymlinkSizeIsChecked() async throws {
        let f = try await BrokerFixture(start: false)
        let applications = "\(f.root)/data/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try f.write(Self.entry("Small"), to: "data/applications/org.test.small.desktop")
        // A valid entry padded with comments past the 1 MiB limit, outside the directory.
        let padding = String(
            repeating: "# padding to pass the size limit of desktop entries\n", count: 24_000)
        try f.write(Self.entry("Huge") + padding, to: "elsewhere/huge.txt")
        try FileManager.default.createSymbolicLink(
            atPath: "\(applications)/org.test.huge.desktop",
            withDestinationPath: "\(f.root)/elsewhere/huge.txt")
        try await f.startBroker()

        let records = try await f.registered()
        #expect(records["desktop.org.test.small"] != nil)
        #expect(records["desktop.org.test.huge"] == nil)
        #expect(f.log.contains("org.test.huge.desktop: larger than"), "\(f.log)")
    }

    @Test("Item 14: a manifest file name with a newline and ESC is logged escaped, on one line")
    func fileNamesAreLoggedSafely() async throws {
        let f = try await BrokerFixture(builtin: ["evil\n\u{1B}[31mforged line.json": "{ not json"])
        try await waitUntil("the skipped file's line") { f.log.contains("skipped") }
        let log = f.log
        #expect(!log.contains("\u{1B}"), "raw ESC in the log")
        #expect(
            !log.split(separator: "\n").contains {
                $0.contains("forged line") && !$0.hasPrefix("activity-broker: ")
            })
        #expect(log.contains(#"evil\u{A}\u{1B}[31mforged line.json"#), "\(log)")
    }

    /// A manifest that is a symlink into a hung file system once kept the broker from its name
    /// for good: the first read ran on the loop, before the name was requested, and read(2) on
    /// such a file never returns. Now the broker owns its name after `firstReadSeconds` and
    /// serves; the catalog comes when the read ends.
    @Test(
        "A manifest whose read never returns does not keep the broker from its name",
        .enabled(if: HangingMount.unavailable == nil, "needs FUSE: \(HangingMount.unavailable ?? "")"))
    func hungManifestRead() async throws {
        let mount = try await HangingMount(content: TestManifest.json(id: "org.test.hung"))
        let f = try await BrokerFixture(
            builtin: ["plain.json": TestManifest.json(id: "org.test.plain")], start: false)
        try FileManager.default.createSymbolicLink(
            atPath: f.builtinExtensions + "/hanging.json", withDestinationPath: mount.file)
        try await f.startBroker()

        // Serving, without the static catalog while its read hangs.
        let before = try await f.registered()
        #expect(before["org.test.plain"] == nil && before["org.test.hung"] == nil, "\(before.keys.sorted())")
        #expect(f.log.contains("serving without them"), "\(f.log)")
        try await f.register("org.test.live", name: "Live", on: f.client)
        #expect(try await f.registered()["org.test.live"] != nil)

        // The read ends: everything it found is applied, then the directories are watched.
        try mount.release()
        try await waitUntil("the catalog read at last", deadline: .seconds(30)) {
            let records = try await f.registered()
            return records["org.test.plain"] != nil && records["org.test.hung"] != nil
        }
        try f.write(TestManifest.json(id: "org.test.later"), to: "builtin/later.json")
        try await waitUntil("a manifest written after the late read", deadline: .seconds(30)) {
            try await f.registered()["org.test.later"] != nil
        }
    }

    /// One `open`/`write`/`close`, no temporary file and no sync.
    static func writePlain(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    static func entry(_ name: String) -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=true %u\nMimeType=x-scheme-handler/https;\n"
    }
}
