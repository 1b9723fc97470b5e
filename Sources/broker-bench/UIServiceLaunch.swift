// How the bench starts a UI service (the sheet, the browser window) on its private bus: the same GTK environment for it and its floor, and its activation file.
import Foundation

/// The GTK settings and D-Bus activation file shared by the share-sheet and browser runs, so
/// that a service and the bare GTK/WebKit program it is compared with start alike.
enum UIServiceLaunch {
    /// GTK's renderer: `GSK_RENDERER` when set, else cairo (faster to the first frame here).
    static var renderer: String {
        ProcessInfo.processInfo.environment["GSK_RENDERER"].flatMap { $0.isEmpty ? nil : $0 } ?? "cairo"
    }

    /// The environment of a GTK program on `display`, without accessibility.
    static func gtkEnvironment(display: String, renderer: String) -> [String: String] {
        [
            "DISPLAY": display, "GDK_BACKEND": "x11", "GSK_RENDERER": renderer, "GTK_A11Y": "none",
            "NO_AT_BRIDGE": "1",
        ]
    }

    /// Writes `directory/name.service`, which starts `executable` with `variables` and no idle exit.
    static func writeActivationFile(
        name: String, executable: String, variables: [String: String], directory: String
    ) throws {
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: " ")
        try """
        [D-BUS Service]
        Name=\(name)
        Exec=/usr/bin/env \(assignments) \(executable) --idle-exit 0

        """.write(toFile: directory + "/\(name).service", atomically: true, encoding: .utf8)
    }
}
