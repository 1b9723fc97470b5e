// Where GTK placed the sheet's controls (AT-SPI Component extents) and where its X window sits on the screen.
import Foundation
import TestSupport
import Testing

/// One visible control as GTK reports it through AT-SPI: its role, name and bounds in the
/// window's coordinates (GTK translates each widget's allocation to its window), and whether
/// it has the keyboard focus.
struct PlacedControl: Sendable, CustomStringConvertible {
    let role: String
    let name: String
    let bounds: Rect
    let focused: Bool

    /// Parses one line of `sheet-tree.py --geometry`; nil for anything else.
    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 6, let x = Int(fields[2]), let y = Int(fields[3]), let width = Int(fields[4]),
            let height = Int(fields[5])
        else { return nil }
        role = fields[0]
        name = fields[1]
        bounds = Rect(x: x, y: y, width: width, height: height)
        focused = fields.count > 6 && fields[6] == "focused"
    }

    var description: String { "\(role) '\(name)' \(bounds)\(focused ? " focused" : "")" }
}

extension SheetFixture {
    /// The visible controls of the sheet process `pid`, in tree order (empty while AT-SPI
    /// does not see it yet).
    func placedControls(pid: UInt32) async throws -> [PlacedControl] {
        try await sheetTreeLines(pid: pid, ["--geometry"]).compactMap(PlacedControl.init(line:))
    }

    /// Waits until the controls satisfy `condition` and returns them.
    func waitForControls(
        pid: UInt32, _ what: String, deadline: Deadline = .seconds(30), _ condition: ([PlacedControl]) -> Bool
    ) async throws -> [PlacedControl] {
        try await waitForReading(what, deadline: deadline, read: { try await placedControls(pid: pid) }, condition)
    }

    /// The X window's place on the screen and its size (`xdotool getwindowgeometry`).
    func windowRect(_ window: String) async throws -> Rect {
        let output = try await tool("xdotool", ["getwindowgeometry", "--shell", window])
        var values: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"],
            let height = values["HEIGHT"]
        else {
            throw ToolError(description: "no geometry for window \(window): \(output)")
        }
        return Rect(x: x, y: y, width: width, height: height)
    }
}
