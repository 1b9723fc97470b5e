// Broker1.Prewarm: best-effort DNS prefetch of the hosts of URLs an app may soon Browse, off the loop.
import ActivityBrokerInterface
import ActivityKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `Prewarm(as urls)` (API.md §10): checks the URLs, returns at once, and resolves their hosts
/// with `getaddrinfo` on a background queue, a few at a time, keeping no result.
///
/// Best-effort by design: it only helps when something below caches answers (systemd-resolved,
/// nscd, a caching stub resolver); without one it costs a lookup and changes nothing. Lookups
/// never fail the call, and when too many are already waiting new ones are dropped, so no app
/// can make the broker queue work without bound. It never connects anywhere: the browser
/// service's own engine preconnects when it opens the page.
///
/// Thread-safe: `prewarm` runs on the loop; the lookups run on `queue`, counted under `lock`.
final class Prewarmer: @unchecked Sendable {
    /// Lookups running at once.
    static let concurrency = 4
    /// Lookups waiting or running beyond which new hosts are dropped.
    static let maximumPending = 64

    private let log: BrokerLog
    private let queue = DispatchQueue(label: "activity-broker.prewarm", attributes: .concurrent)
    private let slots = DispatchSemaphore(value: Prewarmer.concurrency)
    private let lock = NSLock()
    private var pending = 0

    init(log: BrokerLog) {
        self.log = log
    }

    /// Checks `urls` (at most `Broker1.prewarmMaximumURLs`, each an http or https URL within
    /// `SharedURL.maxLength`) and starts resolving their hosts.
    /// - Throws: `limitExceeded` for too many URLs, `invalidArgument` naming the bad one.
    func prewarm(_ urls: [String]) throws(ActivityError) {
        let method = Broker1.prewarm.name.rawValue
        guard urls.count <= Broker1.prewarmMaximumURLs else {
            throw .limitExceeded(
                "\(method): \(urls.count) URLs given; at most \(Broker1.prewarmMaximumURLs) are allowed per call")
        }
        var hosts: [String] = []
        for (index, text) in urls.enumerated() {
            let url: SharedURL
            do {
                url = try SharedURL(text)
            } catch {
                throw .invalidArgument("\(method): URL \(index + 1): \(error.message)")
            }
            guard url.scheme == "http" || url.scheme == "https", let host = url.host, !host.isEmpty else {
                throw .invalidArgument("\(method): URL \(index + 1) must be http or https")
            }
            if !hosts.contains(host) { hosts.append(host) }
        }
        let admitted = admit(hosts.count)
        log.debug("prewarm: resolving \(admitted) of \(hosts.count) hosts")
        for host in hosts.prefix(admitted) {
            queue.async { [self] in
                slots.wait()
                let resolved = Self.resolve(host)
                slots.signal()
                lock.withLock { pending -= 1 }
                log.debug("prewarm: a host was \(resolved ? "resolved" : "not resolved")")
            }
        }
    }

    /// How many of `count` new lookups fit under `maximumPending`; counts them as pending.
    private func admit(_ count: Int) -> Int {
        lock.withLock {
            let admitted = min(count, max(0, Self.maximumPending - pending))
            pending += admitted
            return admitted
        }
    }

    /// `getaddrinfo(host)`, result freed at once: the point is the resolver's cache.
    private static func resolve(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        return status == 0
    }
}
