// ListActivities with its own URL on every call: the lookup itself, which the answer cache never serves.
import DBus

/// Issue 14's main `ListActivities` figure: each call shares a different page of the measured
/// site (the measured URL with its own path), so no two calls have the same items and the
/// broker's answer cache cannot help, as when a browser's share button follows the user
/// from page to page. The repeated-URL figures (`list15`, `list60`) stay as the cache's.
enum DistinctURLs {
    /// `url` made unique for call `index`: its last path segment gets `-index` (the broker's
    /// answer cache is keyed by scheme, host and path, so a query alone would hit it; the
    /// measured rules look at path prefixes only, so the same activities apply).
    static func url(_ url: String, _ index: Int) -> String {
        let query = url.firstIndex(of: "?") ?? url.endIndex
        return url[..<query] + "-\(index)" + url[query...]
    }

    /// Untimed distinct-URL calls before the timed ones.
    static let warmUp = 200

    /// A body for `PairedTiming.time` that sends the next of `count + warmUp` distinct URLs on
    /// each call, each call encoded before the clock starts; first checks that such a URL
    /// lists `expected` activities.
    static func caller(
        _ client: BlockingConnection, url: String, expected: Int, count: Int
    ) throws -> () throws -> Void {
        let calls = try (0..<(count + warmUp + 1)).map { try SizeRun.listCall(Self.url(url, $0)) }
        let listed = try client.call(calls[count + warmUp]).body.first?.array?.count ?? -1
        if listed != expected {
            throw BenchFailure(
                "ListActivities(\(Self.url(url, count + warmUp))) gave \(listed) activities, designed for \(expected)"
            )
        }
        var next = 0
        return {
            precondition(next < count + warmUp, "more distinct-URL calls than encoded")
            try client.callDiscardingReply(calls[next])
            next += 1
        }
    }
}
