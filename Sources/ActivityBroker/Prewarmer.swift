// Broker1.Prewarm: best-effort DNS prefetch of the hosts of URLs an app may soon Browse, off the loop.
import ActivityBrokerInterface
import ActivityKit
import Dispatch

import Glibc
import Locking
import SystemSupport

/// `Prewarm(as urls)` (API.md §10): checks the URLs, returns at once, and resolves their hosts
/// with `getaddrinfo` on a background queue, a few at a time, keeping no result.
///
/// Best-effort by design: it only helps when something below caches answers (systemd-resolved,
/// nscd, a caching stub resolver); without one it costs a lookup and changes nothing. Lookups
/// never fail the call, and when too many are already waiting new ones are dropped, so no app
/// can make the broker queue work without bound. It never connects anywhere: the browser
/// service's own engine preconnects when it opens the page.
///
/// Thread-safe: `prewarm` runs on the loop; at most `concurrency` workers on a global queue
/// take hosts from `work.waiting`, which (with `work.workers`) is guarded by its lock. No thread blocks
/// waiting for a turn: a host waits in the list, not on a semaphore.
final class Prewarmer: Sendable {
    /// Lookups running at once.
    static let concurrency = 4
    /// Hosts waiting beyond which new ones are dropped.
    static let maximumWaiting = 64

    private let log: BrokerLog
    /// The hosts waiting and the workers running.
    private struct Work {
        var waiting: [String] = []
        var workers = 0
    }
    private let work = Locked(Work())

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
                "\(method): \(urls.count) URLs given; at most \(Broker1.prewarmMaximumURLs) are allowed per call"
            )
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
        let (admitted, started) = work.withLock { work in
            let admitted = min(hosts.count, max(0, Self.maximumWaiting - work.waiting.count))
            work.waiting += hosts.prefix(admitted)
            let started = min(Self.concurrency - work.workers, work.waiting.count)
            work.workers += started
            return (admitted, started)
        }
        log.debug("prewarm: resolving \(admitted) of \(hosts.count) hosts")
        for _ in 0..<started {
            DispatchQueue.global(qos: .utility).async { [self] in resolveWaiting() }
        }
    }

    /// One worker: resolves waiting hosts until there are none.
    private func resolveWaiting() {
        while let host = work.withLock({ work -> String? in
            if work.waiting.isEmpty {
                work.workers -= 1
                return nil
            }
            return work.waiting.removeFirst()
        }) {
            let resolved = Self.resolve(host)
            log.debug("prewarm: a host was \(resolved ? "resolved" : "not resolved")")
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
