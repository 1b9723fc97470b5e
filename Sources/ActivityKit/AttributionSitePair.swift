// AttributionSitePair: the key of Private Click Measurement clicks and reports.

/// A source site and a destination site (registrable domains); at most one click and one
/// pending report exist per pair.
public struct AttributionSitePair: Hashable, Sendable {
    public let source: String
    public let destination: String

    public init(source: String, destination: String) {
        self.source = source
        self.destination = destination
    }
}
