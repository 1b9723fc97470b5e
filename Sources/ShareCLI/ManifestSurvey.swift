// What `share activities` adds about manifest files: the broken ones, with their error, and id collisions.
import ActivityKit
import Foundation
import SystemSupport

/// Reads the manifest directories the broker reads, with the broker's rules, to say what the
/// broker skipped and why (its log says it too, but authors look here first).
///
/// The directories: `$XDG_DATA_HOME/activity-broker/extensions` (user), then each
/// `$XDG_DATA_DIRS` entry's `activity-broker/extensions` (system), then the `--extensions-dir`
/// directories given to `share activities` (built-in: the broker's own are not visible on the
/// bus). Masking and collisions are resolved by the broker's own code, `Registry.setStaticLayers`
/// (the higher directory wins; within one directory the file name that sorts first); validation
/// is `ManifestCheck`, i.e. `Manifest.decode`, on what the broker reads.
struct ManifestSurvey {
    /// One line per broken file: `PATH:LINE:COLUMN: error: FIELD: MESSAGE`.
    var problems: [String] = []
    /// One line per ignored duplicate id, naming the winner and why.
    var collisions: [String] = []

    /// The manifest directories, highest precedence first.
    static func directories(environment: [String: String], builtin: [String]) -> [(ActivityOrigin, String)] {
        let paths = XDGPaths(environment: environment)
        let suffix = "/activity-broker/extensions"
        let builtins = Set(builtin.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        var result: [(ActivityOrigin, String)] = [(.user, paths.dataHome + suffix)]
        // As the broker does: a built-in directory that is also an XDG_DATA_DIRS entry is read once, as built-in.
        result += paths.dataDirectories.map { $0 + suffix }.filter { !builtins.contains($0) }.map {
            (.system, $0)
        }
        result += builtin.map { (.builtin, $0) }
        return result
    }

    init(directories: [(ActivityOrigin, String)]) {
        var layers: [StaticLayer] = []
        for (origin, directory) in directories {
            var entries: [String: StaticEntry] = [:]
            for name in Self.manifestFiles(in: directory) {
                let path = directory + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else {
                    problems.append("\(path): error: cannot read the file")
                    continue
                }
                let result = ManifestCheck.check(Array(data), fileName: name, origin: origin)
                if result.isMask {
                    entries[name] = .masked
                } else if let activity = result.activity {
                    entries[name] = .activity(activity)
                } else {
                    // A broken file masks nothing (the broker leaves it out of its layer too).
                    for diagnostic in result.diagnostics where diagnostic.severity == .error {
                        problems.append(diagnostic.formatted(file: path))
                    }
                }
            }
            layers.append(StaticLayer(origin: origin, entries: entries))
        }
        var registry = Registry()
        registry.setStaticLayers(layers)
        collisions = registry.conflicts.map { "\($0): \(Self.precedence)" }
    }

    /// Why the winner wins, in one line.
    static let precedence =
        "user beats system (XDG_DATA_DIRS in order) beats built-in; in one directory, the file name sorting first"

    /// The `*.json` files the broker reads: not hidden, sorted.
    static func manifestFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") && $0.count > 5 && !$0.hasPrefix(".") }.sorted()
    }

    /// The text printed after the activities; empty when there is nothing to say.
    var text: String {
        var sections: [String] = []
        if !problems.isEmpty {
            sections.append(
                (["Broken manifest files (skipped by the broker):"] + problems.map { "  " + $0 }).joined(
                    separator: "\n"))
        }
        if !collisions.isEmpty {
            sections.append(
                (["Activity ids defined by more than one file:"] + collisions.map { "  " + $0 }).joined(
                    separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }
}
