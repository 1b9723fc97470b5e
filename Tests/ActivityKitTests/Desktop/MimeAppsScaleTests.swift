// Review item 1: a 1 MiB mimeapps.list line, or tens of thousands of entries naming one scheme, resolve in linear work, with the per-key cap.
import Testing

@testable import ActivityKit

@Suite struct MimeAppsScaleTests {
    static let config = "/home/u/.config"
    static let applications = "/usr/share/applications"

    /// `x-scheme-handler/https=a0.desktop;a1.desktop;…` until the file passes 1 MiB, in
    /// `[Default Applications]` and `[Added Associations]` alike (each id listed twice, as
    /// repetitions count once).
    static func mebibyteList() -> (text: String, ids: Int) {
        var ids: [String] = []
        var bytes = 0
        while bytes < 1 << 19 {
            let id = "a\(ids.count).desktop;"
            ids.append(id)
            bytes += id.utf8.count
        }
        let line = "x-scheme-handler/https=" + (ids + ids).joined() + "\n"
        return ("[Default Applications]\n" + line + "[Added Associations]\n" + line, ids.count)
    }

    @Test func aMebibyteMimeappsListKeepsTheFirstIDsOfEachKey() throws {
        let (text, count) = Self.mebibyteList()
        #expect(text.utf8.count > 1 << 20)
        #expect(count > 30_000)
        let resolver = MimeAppsResolver(files: [(Self.config + "/mimeapps.list", text)])
        let cap = MimeAppsList.maximumIDsPerKey
        let list = try #require(resolver.lists.first)
        #expect(list.added["x-scheme-handler/https"] == (0..<cap).map { "a\($0).desktop" })
        #expect(list.defaults["x-scheme-handler/https"]?.count == cap)
        #expect(
            list.truncatedKeys == [
                "Default Applications/x-scheme-handler/https", "Added Associations/x-scheme-handler/https",
            ])
        let associated = resolver.associatedApplications(for: "x-scheme-handler/https")
        #expect(associated.count == cap)
        #expect(associated.first == "a0.desktop")
        #expect(resolver.namedDefaults(for: "X-Scheme-Handler/HTTPS").count == cap)
        // Within the cap the list is what GIO reads; past it the ids are not there at all.
        #expect(
            resolver.defaultApplication(for: "x-scheme-handler/https", installed: ["a\(cap - 1).desktop"])
                == "a\(cap - 1).desktop")
        #expect(
            resolver.defaultApplication(for: "x-scheme-handler/https", installed: ["a\(cap).desktop"]) == nil)
    }

    @Test func aListWithinTheCapIsKeptWholeAndReportsNothing() throws {
        let ids = (0..<MimeAppsList.maximumIDsPerKey).map { "b\($0).desktop" }
        let text =
            "[Added Associations]\nx-scheme-handler/https=" + ids.joined(separator: ";") + ";b0.desktop\n"
        let list = try MimeAppsList(parsing: text, path: Self.config + "/mimeapps.list")
        #expect(list.added["x-scheme-handler/https"] == ids)
        #expect(list.truncatedKeys.isEmpty)
    }

    @Test func tenThousandEntriesNamingOneSchemeEachHandleIt() {
        let count = 10_000
        var files: [String: String] = [:]
        for n in 0..<count {
            files["app\(n).desktop"] =
                "[Desktop Entry]\nType=Application\nName=App \(n)\nExec=app %u\n"
                + "MimeType=x-scheme-handler/https;x-scheme-handler/https;x-scheme-handler/s\(n % 7);\n"
        }
        let scan = DesktopApplicationScanner.scan(
            [.init(path: Self.applications, files: files)], locale: nil, hasExecutable: { _ in true })
        #expect(scan.applications.count == count)
        let resolver = MimeAppsResolver(
            files: [
                (
                    Self.config + "/mimeapps.list",
                    "[Default Applications]\nx-scheme-handler/https=app777.desktop\n"
                        + "[Removed Associations]\nx-scheme-handler/https=app5.desktop\n"
                )
            ], directories: scan.directories)
        let handlers = DesktopHandlers(applications: scan.applications, resolver: resolver)
        #expect(handlers.handlers["https"]?.count == count - 1)
        #expect(Set(handlers.handlers["https"] ?? []).count == count - 1)
        #expect(handlers.defaults["https"] == "app777.desktop")
        #expect(handlers.schemes(handledBy: "app8.desktop") == ["https", "s1"])
        #expect(handlers.schemes(handledBy: "app5.desktop") == ["s5"])
        #expect(scan.applications.allSatisfy { !handlers.schemes(handledBy: $0.desktopID).isEmpty })
    }
}
