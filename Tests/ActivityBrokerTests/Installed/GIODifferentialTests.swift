// The broker against GLib's GIO on the same desktop entries and mimeapps.list files (API.md §4.1).
import ActivityKit
import DBus
import Foundation
import TestSupport
import Testing

/// Differential test: `Tests/gio-corpus` (desktop entries in the shapes real packages ship,
/// and mimeapps.list files in every place the spec names) is given to GIO
/// (`Gio.AppInfo.get_all_for_type`, `get_default_for_uri_scheme`, names per `LANGUAGE`,
/// `launch_uris` with recording programs on PATH and a recording `org.freedesktop.Application`
/// on the bus) and to the real broker (`ListActivities` per locale, `Perform`). Every
/// difference found must be one of `deliberate`, and every deliberate one must still occur.
@Suite(.serialized) struct GIODifferentialTests {
    /// The differences the broker keeps on purpose, with the reason.
    static let deliberate = listed.merging(loopCopies) { first, _ in first }

    /// `data-home/applications/ring/self -> .`: GIO enters the loop again at every level until
    /// the kernel refuses a path of more than 40 symlinks (ELOOP), so it offers the entry once
    /// more per level, each copy under a longer id; the broker does not enter a directory
    /// already open above it (DirectoryTree) and offers the entry once.
    static let loopCopies: [String: String] = Dictionary(
        uniqueKeysWithValues: (1...40).map { level in
            (
                "finger: GIO offers ring-\(String(repeating: "self-", count: level))finger-client.desktop, the broker does not",
                "A symlink loop: GIO follows it 40 times (ELOOP), the broker not at all (one problem line in its log)."
            )
        })

    private static let listed: [String: String] = [
        "sftp: GIO offers sftp-viewer.desktop, the broker does not":
            "Exec takes local files only (%f): a URL cannot be handed to it (GIO would pass nothing).",
        "gopher: GIO offers lynx.desktop, the broker does not":
            "Exec has no field code: GIO appends %f, which is empty for a non-file URL, so Lynx would start without the URL.",
        "rdp: GIO offers org.remmina.Remmina.desktop, the broker does not":
            "[Removed Associations] in the data directory's own mimeapps.list removes Remmina for rdp (mime-apps spec); GIO 2.74's expand_strv skips its exclusion list when the directory's list of additions is still empty, so the removal is lost.",
        "rdp: GIO's default is org.remmina.Remmina.desktop, the broker's is none":
            "The same removal as above.",
        "sftp: GIO's default is sftp-viewer.desktop, the broker's is none":
            "The %f-only entry above is not offered, so it cannot rank first.",
        "ircs: GIO's default is org.qbittorrent.qBittorrent.desktop, the broker's is io.github.Hexchat.desktop":
            "[Default Applications] names qBittorrent, which does not handle ircs; API.md §4.1 and the mime-apps spec require the default to be installed *and associated*, GIO only installed.",
        "org.gnome.Epiphany.desktop: the broker's platform data also has activation-token":
            "API.md §4.1 passes the token under both names (GLib ≥ 2.76 does too); GLib 2.74 sends only desktop-startup-id.",
        "org.gnome.Calendar.desktop: the broker's platform data also has activation-token": "As above.",
        "vendor-org.example.Maps.desktop: the broker's platform data also has activation-token": "As above.",
    ]

    @Test func theBrokerSeesWhatGIOSees() async throws {
        let run = try await GIODifferentialRun()
        try await run.startApplicationServer(names: [
            "org.gnome.Epiphany", "org.gnome.Calendar", "org.example.Maps",
        ])
        try await run.session.startBroker(environment: run.environment, wrapper: GIODifferentialRun.wrapper)
        try await run.askBroker()
        try await run.askGIO(launching: [])
        // Every entry the broker offers, and GIO's default where "Open in Browser" stands for it,
        // is launched by both with every URL of its scheme.
        var pairs: [(id: String, url: String)] = []
        for (scheme, urls) in run.cases.urls.sorted(by: { $0.key < $1.key }) {
            let offered = (run.offers[scheme]?[""] ?? []).map(\.id)
            var ids = offered.filter { $0.hasPrefix("desktop.") }.map {
                String($0.dropFirst("desktop.".count)) + ".desktop"
            }
            if offered.contains("org.activitybroker.open-in-browser"),
                let folded = run.reference.schemes[scheme]?.default
            {
                ids.append(folded)
            }
            for id in Set(ids).sorted() { for url in urls { pairs.append((id, url)) } }
        }
        try await run.askGIO(launching: pairs)
        try await run.launchWithBroker()

        var differences: [String] = []
        var compared = (schemes: 0, entries: Set<String>(), names: 0, launches: 0)
        for (scheme, gio) in run.reference.schemes.sorted(by: { $0.key < $1.key }) {
            compared.schemes += 1
            let offered = run.offers[scheme]?[""] ?? []
            let alias = offered.first { $0.id == "org.activitybroker.open-in-browser" }
            var brokerIDs = offered.map(\.id).filter { $0.hasPrefix("desktop.") }
                .map { String($0.dropFirst("desktop.".count)) + ".desktop" }
            // "Open in Browser" stands for the scheme's default, whose own entry it folds.
            if alias != nil, let folded = gio.default, !brokerIDs.contains(folded) {
                brokerIDs.append(folded)
            }
            compared.entries.formUnion(gio.all)
            for id in gio.all where !brokerIDs.contains(id) {
                differences.append("\(scheme): GIO offers \(id), the broker does not")
            }
            for id in brokerIDs where !gio.all.contains(id) {
                differences.append("\(scheme): the broker offers \(id), GIO does not")
            }
            // The first-ranked application.
            let brokerDefault =
                alias != nil ? gio.default.flatMap { brokerIDs.contains($0) ? $0 : nil } : brokerIDs.first
            if let gioDefault = gio.default, alias != nil,
                offered.contains(where: { $0.id == Self.activityID(gioDefault) })
            {
                differences.append("\(scheme): the default \(gioDefault) is offered beside Open in Browser")
            }
            if brokerDefault != gio.default {
                differences.append(
                    "\(scheme): GIO's default is \(gio.default ?? "none"), the broker's is \(brokerDefault ?? "none")"
                )
            }
            // Names in every locale: each entry's, and "Open in Browser" after the default.
            for locale in run.cases.locales {
                for offer in run.offers[scheme]?[locale] ?? [] {
                    let id: String
                    if offer.id == "org.activitybroker.open-in-browser", let gioDefault = gio.default {
                        id = gioDefault
                    } else if offer.id.hasPrefix("desktop.") {
                        id = String(offer.id.dropFirst("desktop.".count)) + ".desktop"
                    } else {
                        continue
                    }
                    guard let gioName = run.reference.names[id]?[locale] else { continue }
                    compared.names += 1
                    let expected = Self.phrase(locale).replacingOccurrences(of: "%@", with: gioName)
                    if offer.name != expected {
                        differences.append(
                            "\(scheme) \(locale) \(offer.id): the broker says '\(offer.name)', GIO's name gives '\(expected)'"
                        )
                    }
                }
            }
        }
        for launch in run.launches {
            compared.launches += 1
            differences += Self.compare(launch.id, launch.url, gio: launch.gio, broker: launch.broker)
        }
        let unique = Array(Set(differences)).sorted()
        let undocumented = unique.filter { Self.deliberate[$0] == nil }
        let stale = Self.deliberate.keys.filter { !unique.contains($0) }.sorted()
        #expect(
            undocumented.isEmpty,
            "differences from GIO not listed as deliberate:\n\(undocumented.joined(separator: "\n"))")
        #expect(
            stale.isEmpty, "deliberate differences that no longer occur:\n\(stale.joined(separator: "\n"))")
        // The unreadable subdirectory is skipped alone, and said once.
        #expect(run.session.log.components(separatedBy: run.locked).count - 1 == 1, "\(run.session.log)")
        let loop = run.locked.replacingOccurrences(of: "/locked", with: "/ring/self")
        #expect(run.session.log.contains(loop + ": not listed: a symlink loop"), "\(run.session.log)")
        #expect(compared.schemes == run.cases.urls.count)
        #expect(compared.entries.count >= 20, "entries compared: \(compared.entries.count)")
        #expect(compared.launches >= 40, "launches compared: \(compared.launches)")
        #expect(compared.names >= 300, "names compared: \(compared.names)")
        print(
            "GIO differential: \(compared.schemes) schemes, \(compared.entries.count) entries, \(compared.names) names, \(compared.launches) launches; \(unique.count) differences, \(undocumented.count) undocumented"
        )
    }

    static func activityID(_ desktopID: String) -> String {
        "desktop." + desktopID.dropLast(".desktop".count)
    }

    /// "Open in %@" for a locale, looked up as the broker's records are.
    static func phrase(_ locale: String) -> String {
        for candidate in DesktopEntry.localeFallbacks(locale) {
            if let phrase = OpenInPhrase.translations[candidate] { return phrase }
        }
        return OpenInPhrase.english
    }

    /// What differs between GIO's and the broker's record of one launch.
    static func compare(_ id: String, _ url: String, gio: [String: Any], broker: [String: Any]) -> [String] {
        if let error = gio["error"] ?? broker["error"] {
            return [
                "\(id) \(url): a launch failed: GIO \(gio["error"] ?? "ok"), broker \(broker["error"] ?? "ok") (\(error))"
            ]
        }
        if let gioCall = gio["dbus"] as? [String: Any] {
            guard let brokerCall = broker["dbus"] as? [String: Any] else {
                return ["\(id): GIO calls Open, the broker ran \(broker["argv"] ?? "nothing")"]
            }
            var result: [String] = []
            if "\(gioCall["path"] ?? "")" != "\(brokerCall["path"] ?? "")"
                || "\(gioCall["uris"] ?? "")" != "\(brokerCall["uris"] ?? "")"
            {
                result.append(
                    "\(id) \(url): GIO opens \(gioCall["uris"] ?? "") at \(gioCall["path"] ?? ""), the broker \(brokerCall["uris"] ?? "") at \(brokerCall["path"] ?? "")"
                )
            }
            let gioData = gioCall["platform_data"] as? [String: Any] ?? [:]
            var brokerData = brokerCall["platform_data"] as? [String: Any] ?? [:]
            if brokerData.removeValue(forKey: "activation-token") != nil, gioData["activation-token"] == nil {
                result.append("\(id): the broker's platform data also has activation-token")
            }
            if NSDictionary(dictionary: gioData) != NSDictionary(dictionary: brokerData) {
                result.append("\(id): platform data differs: GIO \(gioData), broker \(brokerData)")
            }
            return result
        }
        let gioArgv = gio["argv"] as? [String] ?? []
        let brokerArgv = broker["argv"] as? [String] ?? []
        var result: [String] = []
        if gioArgv != brokerArgv {
            result.append("\(id) \(url): GIO runs \(gioArgv), the broker \(brokerArgv)")
        }
        if "\(gio["cwd"] ?? "")" != "\(broker["cwd"] ?? "")" {
            result.append("\(id): GIO runs in \(gio["cwd"] ?? ""), the broker in \(broker["cwd"] ?? "")")
        }
        return result
    }
}
