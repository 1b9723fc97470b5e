// Tests of mimeapps.list parsing, the candidate path order and the default-handler lookup.
import Testing

@testable import ActivityKit

@Suite struct MimeAppsTests {
    static let https = "x-scheme-handler/https"

    @Test func candidatePathsFollowTheSpecTable() {
        let paths = MimeAppsList.candidatePaths(
            configHome: "/home/u/.config", configDirs: ["/etc/xdg", "/opt/xdg/"],
            dataHome: "/home/u/.local/share",
            dataDirs: ["/usr/local/share", "/usr/share"], currentDesktops: ["KDE", "Plasma"])
        #expect(
            paths == [
                "/home/u/.config/kde-mimeapps.list", "/home/u/.config/plasma-mimeapps.list",
                "/home/u/.config/mimeapps.list",
                "/etc/xdg/kde-mimeapps.list", "/etc/xdg/plasma-mimeapps.list", "/etc/xdg/mimeapps.list",
                "/opt/xdg/kde-mimeapps.list", "/opt/xdg/plasma-mimeapps.list", "/opt/xdg/mimeapps.list",
                "/home/u/.local/share/applications/kde-mimeapps.list",
                "/home/u/.local/share/applications/plasma-mimeapps.list",
                "/home/u/.local/share/applications/mimeapps.list",
                "/home/u/.local/share/applications/defaults.list",
                "/usr/local/share/applications/kde-mimeapps.list",
                "/usr/local/share/applications/plasma-mimeapps.list",
                "/usr/local/share/applications/mimeapps.list", "/usr/local/share/applications/defaults.list",
                "/usr/share/applications/kde-mimeapps.list", "/usr/share/applications/plasma-mimeapps.list",
                "/usr/share/applications/mimeapps.list", "/usr/share/applications/defaults.list",
            ])
    }

    @Test func candidatePathsFromEnvironmentApplyDefaultsAndIgnoreRelativeEntries() {
        let paths = MimeAppsList.candidatePaths(
            environment: [
                "XDG_CONFIG_HOME": "relative/config", "XDG_DATA_DIRS": "share:/data",
                "XDG_CURRENT_DESKTOP": "GNOME",
            ],
            home: "/home/u")
        #expect(
            paths == [
                "/home/u/.config/gnome-mimeapps.list", "/home/u/.config/mimeapps.list",
                "/etc/xdg/gnome-mimeapps.list", "/etc/xdg/mimeapps.list",
                "/home/u/.local/share/applications/gnome-mimeapps.list",
                "/home/u/.local/share/applications/mimeapps.list",
                "/home/u/.local/share/applications/defaults.list",
                "/data/applications/gnome-mimeapps.list", "/data/applications/mimeapps.list",
                "/data/applications/defaults.list",
            ])
        #expect(MimeAppsList.desktopNames(fromCurrentDesktop: "ubuntu:GNOME") == ["ubuntu", "gnome"])
    }

    @Test func parsesGroupsTolerantly() throws {
        let list = try MimeAppsList(
            parsing: """
                [Default Applications]
                x-scheme-handler/https=a.desktop;b.desktop
                x-scheme-handler/https=ignored.desktop;
                [Added Associations]
                x-scheme-handler/https=c.desktop;
                [Default Applications]
                text/html=a.desktop;
                [Removed Associations]
                x-scheme-handler/https=d.desktop;
                """, path: "/etc/xdg/mimeapps.list")
        #expect(list.defaults == [Self.https: ["a.desktop", "b.desktop"], "text/html": ["a.desktop"]])
        #expect(list.added == [Self.https: ["c.desktop"]])
        #expect(list.removed == [Self.https: ["d.desktop"]])
        #expect(!list.isDesktopSpecific)
        #expect(try MimeAppsList(parsing: "", path: "/etc/xdg/kde-mimeapps.list").isDesktopSpecific)
    }

    @Test func brokenFileIsReportedAndTreatedAsEmpty() {
        let resolver = MimeAppsResolver(
            files: [
                ("/home/u/.config/mimeapps.list", "[Default Applications]\nnot a key value line\n"),
                (
                    "/usr/share/applications/mimeapps.list",
                    "[Default Applications]\n\(Self.https)=b.desktop\n"
                ),
            ], directories: Self.contents(Self.installed))
        #expect(
            resolver.errors.map(\.description) == [
                "/home/u/.config/mimeapps.list:2: expected 'Key=Value', a [Group] header or a # comment"
            ])
        #expect(resolver.defaultApplication(for: Self.https, installed: Self.installedIDs) == "b.desktop")
    }

    static let user = "/home/u/.local/share/applications"
    static let system = "/usr/share/applications"
    /// (desktop id, directory, MimeType=)
    typealias Installed = (id: String, directory: String, mimeTypes: [String])
    static let installed: [Installed] = [
        ("a.desktop", system, [https]),
        ("b.desktop", system, [https, "text/html"]),
        ("c.desktop", system, ["text/html"]),
        ("u.desktop", user, [https]),
    ]

    /// What the scanner reports for these entries: ids per directory and their mimeinfo.cache.
    static func contents(_ installed: [Installed]) -> [MimeAppsDirectoryContents] {
        var result: [MimeAppsDirectoryContents] = []
        for entry in installed {
            if !result.contains(where: { $0.path == entry.directory }) {
                result.append(MimeAppsDirectoryContents(path: entry.directory))
            }
            let i = result.firstIndex { $0.path == entry.directory }!
            result[i].desktopIDs.insert(entry.id)
            for mime in entry.mimeTypes {
                result[i].mimeCache[mime.lowercased(), default: []].append(entry.id)
            }
        }
        return result
    }

    static var installedIDs: Set<String> { Set(installed.map(\.id)) }

    static func paths(_ contents: [String: String], desktops: [String] = ["gnome"]) -> [(
        path: String, contents: String
    )] {
        MimeAppsList.candidatePaths(
            configHome: "/home/u/.config", configDirs: ["/etc/xdg"], dataHome: "/home/u/.local/share",
            dataDirs: ["/usr/share"], currentDesktops: desktops
        ).map { ($0, contents[$0] ?? "") }
    }

    /// (files: path → contents, expected default for x-scheme-handler/https)
    @Test(
        arguments: [
            // No mimeapps.list at all: the most preferred association, user directory first.
            ([:], "u.desktop"),
            // The distribution's default.
            ([system + "/mimeapps.list": "[Default Applications]\n\(https)=b.desktop;\n"], "b.desktop"),
            // The user's config file wins over the distribution's.
            (
                [
                    "/home/u/.config/mimeapps.list": "[Default Applications]\n\(https)=a.desktop\n",
                    system + "/mimeapps.list": "[Default Applications]\n\(https)=b.desktop;\n",
                ], "a.desktop"
            ),
            // A desktop-specific file in the same directory comes before the generic one.
            (
                [
                    "/home/u/.config/gnome-mimeapps.list": "[Default Applications]\n\(https)=b.desktop\n",
                    "/home/u/.config/mimeapps.list": "[Default Applications]\n\(https)=a.desktop\n",
                ], "b.desktop"
            ),
            // A not-installed id is skipped for the next one in the list.
            (
                [
                    "/home/u/.config/mimeapps.list":
                        "[Default Applications]\n\(https)=gone.desktop;b.desktop\n"
                ], "b.desktop"
            ),
            // An id not associated with the type (c only handles text/html) is not a default.
            (
                ["/home/u/.config/mimeapps.list": "[Default Applications]\n\(https)=c.desktop;a.desktop\n"],
                "a.desktop"
            ),
            // …unless an added association makes it one.
            (
                [
                    "/home/u/.config/mimeapps.list":
                        "[Default Applications]\n\(https)=c.desktop\n[Added Associations]\n\(https)=c.desktop;\n"
                ], "c.desktop"
            ),
            // A removed association disqualifies the default named by a lower file…
            (
                [
                    "/home/u/.config/mimeapps.list": "[Removed Associations]\n\(https)=b.desktop;u.desktop\n",
                    system + "/mimeapps.list": "[Default Applications]\n\(https)=b.desktop;\n",
                ], "a.desktop"
            ),
            // …but removals in desktop-specific files do not count (they may only set defaults).
            (
                [
                    "/home/u/.config/gnome-mimeapps.list": "[Removed Associations]\n\(https)=b.desktop;\n",
                    system + "/mimeapps.list": "[Default Applications]\n\(https)=b.desktop;\n",
                ], "b.desktop"
            ),
            // A removal in the system file cannot remove an association of the user's own desktop file.
            ([system + "/mimeapps.list": "[Removed Associations]\n\(https)=u.desktop;\n"], "u.desktop"),
            // A desktop-specific file for another desktop is not in the list at all.
            (
                ["/home/u/.config/kde-mimeapps.list": "[Default Applications]\n\(https)=b.desktop\n"],
                "u.desktop"
            ),
        ] as [([String: String], String?)])
    func defaultHandler(files: [String: String], expected: String?) {
        let resolver = MimeAppsResolver(files: Self.paths(files), directories: Self.contents(Self.installed))
        #expect(resolver.errors.isEmpty)
        #expect(resolver.defaultApplication(for: Self.https, installed: Self.installedIDs) == expected)
    }

    @Test func mimeTypesCompareCaseInsensitively() {
        let installed: [Installed] = [
            ("a.desktop", Self.system, [Self.https]), ("b.desktop", Self.system, ["x-scheme-handler/HTTPS"]),
        ]
        let resolver = MimeAppsResolver(
            files: [
                (
                    "/home/u/.config/mimeapps.list",
                    "[Default Applications]\nX-Scheme-Handler/HTTPS=b.desktop\n"
                )
            ],
            directories: Self.contents(installed))
        #expect(
            resolver.defaultApplication(for: "x-scheme-handler/Https", installed: ["a.desktop", "b.desktop"])
                == "b.desktop")
    }

    @Test func associationOrder() {
        let resolver = MimeAppsResolver(
            files: Self.paths([
                "/home/u/.config/mimeapps.list": "[Added Associations]\n\(Self.https)=c.desktop;\n",
                Self.system + "/mimeapps.list": "[Removed Associations]\n\(Self.https)=a.desktop\n",
            ]), directories: Self.contents(Self.installed))
        #expect(resolver.associatedApplications(for: Self.https) == ["c.desktop", "u.desktop", "b.desktop"])
        #expect(resolver.associatedApplications(for: "text/html") == ["b.desktop", "c.desktop"])
        #expect(
            resolver.defaultApplication(for: "x-scheme-handler/gopher", installed: Self.installedIDs) == nil)
    }

    @Test func directoriesMissingFromThePathListComeLast() {
        let resolver = MimeAppsResolver(
            files: [],
            directories: Self.contents([
                ("z.desktop", "/first", [Self.https]), ("a.desktop", "/second/", [Self.https]),
            ]))
        #expect(resolver.associatedApplications(for: Self.https) == ["z.desktop", "a.desktop"])
    }
}
