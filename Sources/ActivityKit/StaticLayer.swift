// StaticLayer: the manifests of one directory layer (user, system, builtin, desktop), by file name.

/// One layer of static activities, keyed by file name so a higher layer can mask a lower one.
public struct StaticLayer: Hashable, Sendable {
    /// The origin given to every activity of this layer.
    public var origin: ActivityOrigin
    /// File name (e.g. "telegram.json") → what the file holds. Broken files are simply left out.
    public var entries: [String: StaticEntry]

    /// Builds a layer.
    public init(origin: ActivityOrigin, entries: [String: StaticEntry] = [:]) {
        self.origin = origin
        self.entries = entries
    }
}
