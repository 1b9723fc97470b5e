// StaticCatalogDigest: what a catalog read handed on, kept as a digest to tell whether a reload changed anything.
import ActivityKit

extension StaticCatalog {
    /// A digest of a read's layers and scheme defaults: two reads with the same digest are taken
    /// to be the same catalog, and the second is not announced.
    ///
    /// A digest, not the layers: keeping them held a dictionary of file names per layer beside
    /// the registry's own table (~450 kB at 10,000 manifests) only to compare the next reload
    /// with. The count and a 64-bit hash (`Hasher`, seeded once per process, so comparable
    /// within it) make a change taken for none a 2⁻⁶⁴ chance.
    struct Applied: Equatable, Sendable {
        private let count: Int
        private let hash: Int

        init(_ layers: [StaticLayer], _ schemeDefaults: [String: SchemeDefault]) {
            var hasher = Hasher()
            hasher.combine(layers)
            hasher.combine(schemeDefaults)
            hash = hasher.finalize()
            count = layers.reduce(0) { $0 + $1.entries.count }
        }
    }
}
