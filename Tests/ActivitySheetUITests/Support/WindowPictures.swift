// Pictures of the sheet's window taken mid-test, and where a control's pixels changed between two of them.
import Foundation
import TestSupport

/// The pixels around a control that differ between two pictures of the window.
struct PictureChange: CustomStringConvertible {
    /// How many pixels changed.
    let count: Int
    /// The smallest rectangle holding them, in the window's coordinates; nil when none did.
    let extent: Rect?

    var description: String { "\(count) pixels changed" + (extent.map { " within \($0)" } ?? "") }
}

extension SheetFixture {
    /// Captures the X window as it is drawn now (`import -window`) into the fixture's
    /// temporary directory, as `<name>.png`; returns the path. Its pixels are in the window's
    /// coordinates, as AT-SPI's extents are (`PlacedControl.bounds`).
    func capture(window: String, name: String) async throws -> String {
        let path = directory + "/\(name).png"
        try await tool("import", ["-window", window, path])
        return path
    }

    /// The pixels within `margin` of `bounds` (cut to the picture) that differ between the
    /// pictures `first` and `second` by more than 5 % in lightness. The theme's focus ring is
    /// its accent colour at 50 to 80 % over the background, 10 to 25 % lighter or darker,
    /// drawn on the button's border box: outside the bounds AT-SPI reports (GTK 4.8 gives a
    /// button's content size there), within 16 pixels of them.
    func change(between first: String, and second: String, around bounds: Rect, margin: Int = 16) async throws
        -> PictureChange
    {
        let x = max(0, bounds.x - margin)
        let y = max(0, bounds.y - margin)
        let crop = "\(bounds.maxX + margin - x)x\(bounds.maxY + margin - y)+\(x)+\(y)"
        // `%@` is the bounding box of what differs from the corners (black: unchanged).
        let output = try await tool(
            "convert",
            [
                first, second, "-crop", crop, "+repage", "-compose", "difference", "-composite",
                "-colorspace", "gray", "-threshold", "5%", "-format", "%[fx:round(mean*w*h)] %@", "info:",
            ])
        let fields = output.split(whereSeparator: { " x+\n".contains($0) }).compactMap { Int($0) }
        guard fields.count == 5 else {
            throw ToolError(description: "convert gave no change for \(crop): \(output)")
        }
        let extent = Rect(x: x + fields[3], y: y + fields[4], width: fields[1], height: fields[2])
        return PictureChange(count: fields[0], extent: fields[0] == 0 ? nil : extent)
    }
}
