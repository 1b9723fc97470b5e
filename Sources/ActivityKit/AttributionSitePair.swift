// AttributionSitePair: the key of Private Click Measurement clicks and reports.

/// A source site and a destination site (registrable domains); at most one click and one
/// pending report exist per pair. Made only by the domain (a click's, a report's or a
/// trigger's sites), so the compiler's memberwise initializer serves.
public struct AttributionSitePair: Hashable, Sendable {
    public let source: String
    public let destination: String
}
