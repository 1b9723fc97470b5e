// The registration storm: 40 connections on 40 threads, each sending all of its RegisterActivity calls at once.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// A storm of `RegisterActivity` calls, encoded before it starts: `connections` connections,
/// each on its own thread, send their share at once (pipelined) when released, then read
/// their replies. Used by the full run (`SizeRun`) and by `--storm` (`StormRun`).
struct StormFlood {
    let connections: [BlockingConnection]
    let messages: [[EncodedCall]]

    /// `calls` registrations over `connectionCount` new connections to `address`; `tag` makes
    /// the ids and hosts distinct from another storm's on the same broker.
    init(address: String, calls: Int, connectionCount: Int, tag: String = "") throws {
        let perConnection = calls / connectionCount
        connections = try (0..<connectionCount).map { _ in try BlockingConnection(address: address) }
        messages = try (0..<connectionCount).map { c in
            try (0..<perConnection).map { i in
                try EncodedCall(
                    Broker1.call(
                        Broker1.registerActivity,
                        [.vardict(Workload.stormRegistration(connection: c, index: i, tag: tag))]))
            }
        }
    }

    /// Releases every sender, runs `during` on this thread until the last reply arrived (its
    /// argument says whether the storm is over), and returns the wall time from release to the
    /// last reply; throws the first sender's failure.
    func run<T>(during: (() -> Bool) throws -> T) throws -> (wall: UInt64, calls: Int, during: T) {
        let done = Locked(0)
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        let finish = Locked<UInt64>(0)
        for (c, connection) in connections.enumerated() {
            let sends = messages[c]
            group.enter()
            Thread {
                gate.wait()
                for message in sends { connection.send(message) }
                connection.flush()
                do {
                    try SizeRun.awaitReplies(connection, sends.count, what: "storm RegisterActivity")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                let now = monotonicNanoseconds()
                finish.withLock { $0 = max($0, now) }
                done.withLock { $0 += 1 }
                group.leave()
            }.start()
        }
        let start = monotonicNanoseconds()
        for _ in connections { gate.signal() }
        let count = connections.count
        let result = try during { done.withLock { $0 } >= count }
        group.wait()
        if let failure = failures.withLock({ $0.first }) { throw BenchFailure(failure) }
        return (finish.withLock { $0 } - start, messages.reduce(0) { $0 + $1.count }, result)
    }
}
