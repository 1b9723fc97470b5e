// The bench's own error: a sentence saying which figure could not be measured and why.

/// A failed measurement or set-up step; the bench prints it and exits 1.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
