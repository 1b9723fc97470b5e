// Manifests tests write for a test broker, and where the repository (its extensions/) is.
import Foundation

/// The repository root, found from this file's path (for `extensions/` and `systemd/`).
public let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .path

/// A manifest for an `exec` activity.
public func execManifest(id: String, name: String, category: String = "action", argv: [String], priority: Int = 0)
    -> String
{
    let arguments = argv.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        {"id": "\(id)", "name": "\(name)", "category": "\(category)", "priority": \(priority),
         "perform": {"exec": [\(arguments)]}}
        """
}

/// A manifest for an `open` activity.
public func openManifest(
    id: String, name: String, category: String = "share", template: String, priority: Int = 0,
    schemes: [String]? = nil
) -> String {
    let match =
        schemes.map { ", \"match\": {\"schemes\": [\($0.map { "\"\($0)\"" }.joined(separator: ", "))]}" }
        ?? ""
    return """
        {"id": "\(id)", "name": "\(name)", "category": "\(category)", "priority": \(priority)\(match),
         "perform": {"open": "\(template)"}}
        """
}
