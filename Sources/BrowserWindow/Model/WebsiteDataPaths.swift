// Where the browser keeps its own website data: never the calling app's.
import Foundation

/// `$XDG_DATA_HOME/activity-broker/web/` for cookies and storage, `$XDG_CACHE_HOME/…/web/`
/// for the cache, and the compiled content blockers beside the data (API.md §10).
public struct WebsiteDataPaths: Sendable, Equatable {
    public let data: String
    public let cache: String
    public let compiledFilters: String

    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? "/"
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
        data = dataHome + "/activity-broker/web"
        cache = cacheHome + "/activity-broker/web"
        compiledFilters = data + "/content-filters"
    }
}
