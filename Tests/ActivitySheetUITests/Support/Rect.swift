// A rectangle in pixels, for the window tests' geometry checks.
/// A rectangle in pixels.
struct Rect: Equatable, Sendable, CustomStringConvertible {
    let x: Int
    let y: Int
    let width: Int
    let height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// Whether `other` lies wholly inside this rectangle.
    func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    var description: String { "(\(x), \(y)) \(width)×\(height)" }
}
