// Latency samples and their summary (p50, p99, calls/s), and the monotonic clock they use.
import DBus
import Foundation

/// Nanoseconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`: a vDSO call, ~20 ns).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// One measured figure: per-call latencies (or a single wall time) summarised.
struct Figure: Codable, Sendable {
    /// Calls measured (1 for a one-off time such as start or a wall time).
    var count: Int
    var p50Microseconds: Double
    var p99Microseconds: Double
    /// Calls per second over the whole loop (count / wall time).
    var callsPerSecond: Double
    /// A value that is not a latency (RSS in kB); nil otherwise.
    var value: Double? = nil

    /// Summarises `samples` (nanoseconds) taken over `wallNanoseconds`.
    init(samples: [UInt64], wallNanoseconds: UInt64) {
        let sorted = samples.sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[min(max(rank, 0), sorted.count - 1)]) / 1000
        }
        p50Microseconds = percentile(0.50)
        p99Microseconds = percentile(0.99)
        callsPerSecond = wallNanoseconds == 0 ? 0 : Double(sorted.count) / (Double(wallNanoseconds) / 1e9)
    }

    /// A one-off time (start-up) or a wall time over `calls` calls.
    init(wallNanoseconds: UInt64, calls: Int = 1) {
        count = calls
        p50Microseconds = Double(wallNanoseconds) / 1000
        p99Microseconds = p50Microseconds
        callsPerSecond = Double(calls) / (Double(max(wallNanoseconds, 1)) / 1e9)
    }

    /// A plain value (RSS in kB).
    init(value: Double) {
        count = 1
        p50Microseconds = 0
        p99Microseconds = 0
        callsPerSecond = 0
        self.value = value
    }

    /// The median of several runs' figures, field by field.
    static func median(_ figures: [Figure]) -> Figure {
        func mid(_ values: [Double]) -> Double { Samples.median(values) ?? 0 }
        var result = figures[0]
        result.count = figures.map(\.count).reduce(0, +) / figures.count
        result.p50Microseconds = mid(figures.map(\.p50Microseconds))
        result.p99Microseconds = mid(figures.map(\.p99Microseconds))
        result.callsPerSecond = mid(figures.map(\.callsPerSecond))
        if figures[0].value != nil { result.value = mid(figures.compactMap(\.value)) }
        return result
    }
}

/// Times `count` calls of `body` (after `warmUp` untimed ones), one at a time.
func timeCalls(_ count: Int, warmUp: Int = 200, _ body: () throws -> Void) throws -> Figure {
    for _ in 0..<warmUp { try body() }
    var samples = [UInt64](repeating: 0, count: count)
    let start = monotonicNanoseconds()
    for index in 0..<count {
        let before = monotonicNanoseconds()
        try body()
        samples[index] = monotonicNanoseconds() - before
    }
    return Figure(samples: samples, wallNanoseconds: monotonicNanoseconds() - start)
}
