// Timestamp: a point in wall-clock time (seconds since 1970 in UTC), read with clock_gettime.
import Glibc

/// A wall-clock time, what usage ranking and click measurement keep: the daemon's stand-in for
/// Foundation's `Date`, so it need not link FoundationEssentials (issue 14).
///
/// Only the wall clock: intervals on the loop are measured with `DispatchTime` (monotonic).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSince1970: Double

    /// The time `secondsSince1970` seconds after 1970-01-01 00:00:00 UTC.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The wall clock now (`clock_gettime(CLOCK_REALTIME)`).
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(secondsSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Seconds from `earlier` to this time (negative when `earlier` is later).
    public func seconds(since earlier: Timestamp) -> Double {
        secondsSince1970 - earlier.secondsSince1970
    }

    /// This time moved by `seconds` (back when negative).
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(secondsSince1970: secondsSince1970 + seconds)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// ISO 8601 in UTC to the second, as usage.json writes it.
    public var description: String { UsageFileFormat.iso8601(self) }
}
