// FuzzCorpus: reading a target's seed inputs from Tests/FuzzCorpus/<target>.
import Foundation

/// The seed inputs of one target: every regular file of its directory, in name order (so
/// a mutation run from a seed is repeatable).
public enum FuzzCorpus {
    /// The files of `directory` as (name, bytes), sorted by name; empty when it does not exist.
    public static func load(directory: String) -> [(name: String, bytes: [UInt8])] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().compactMap { name in
            guard !name.hasPrefix("."), let data = FileManager.default.contents(atPath: directory + "/" + name)
            else { return nil }
            return (name, Array(data))
        }
    }
}
