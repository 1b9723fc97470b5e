// Where the content-blocker rule lists live, and the identifier each file is compiled under.
import Foundation

/// The Safari-format rule lists of API.md §10: `*.json` in
/// `$XDG_DATA_HOME/activity-broker/content-blockers/` and in each `$XDG_DATA_DIRS` entry +
/// `/activity-broker/content-blockers/`. A user's file hides a system file of the same name.
public struct ContentBlockerSources: Sendable, Equatable {
    /// The directories, most important first.
    public let directories: [String]

    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? "/"
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dataDirs =
            (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        directories = ([dataHome] + dataDirs).map { $0 + "/activity-broker/content-blockers" }
    }

    /// The rule-list files present now: identifier → path, the first directory winning.
    public func files() -> [String: String] {
        var found: [String: String] = [:]
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let id = Self.identifier(forFile: name)
                if found[id] == nil { found[id] = directory + "/" + name }
            }
        }
        return found
    }

    /// The store identifier for a file name: the name without `.json`, reduced to
    /// `[A-Za-z0-9_-]` (the store uses it as a file name).
    public static func identifier(forFile name: String) -> String {
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return String(
            stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}
