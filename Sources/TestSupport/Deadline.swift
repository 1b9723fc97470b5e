// Deadlines and condition polling for tests: wait for an event with a limit, never a bare sleep.
import Foundation

/// A point in time by which something must have happened.
public struct Deadline: Sendable, Comparable {
    public let instant: ContinuousClock.Instant

    public init(_ instant: ContinuousClock.Instant) { self.instant = instant }

    /// `duration` from now, stretched by `timeScale`.
    public static func after(_ duration: Duration) -> Deadline { Deadline(.now + duration * timeScale) }

    /// The factor every `after`/`seconds` deadline is multiplied by: the environment variable
    /// `ACTIVITY_BROKER_TEST_TIME_SCALE` (a number ≥ 1; default 1), read once.
    ///
    /// Why: the suite's deadlines are sized for an ordinary debug build on a loaded machine.
    /// Under a sanitizer every process of the test (the broker, `share`, the providers, the
    /// test itself) runs several times slower, so `make sanitize` (scripts/sanitize.sh) sets
    /// a scale instead of each test growing its own margins. A deadline only bounds a wait
    /// for an event, so a longer one costs nothing when the event comes.
    public static let timeScale: Double = {
        guard let text = ProcessInfo.processInfo.environment["ACTIVITY_BROKER_TEST_TIME_SCALE"],
            let scale = Double(text), scale.isFinite, scale >= 1
        else { return 1 }
        return scale
    }()

    /// How long a wait of TestSupport gives its event unless told otherwise (30 s, times
    /// `timeScale`): `waitUntil`, `Inbox.next`, a child's line or exit, the broker's name.
    ///
    /// Why so long: the events come within milliseconds, but `make test` starts every suite at
    /// once on two cores, each test with its own bus, broker or window service starting beside
    /// it; a clean-clone CI run failed a 10 s bound (the old default) then, while tests that do
    /// nothing reported 11 s. A deadline only bounds a wait for an event, so a longer one costs
    /// nothing when the event comes; a test that must see something happen quickly says so
    /// with a bound of its own.
    public static let standardWait: Duration = .seconds(30)

    /// `standardWait` from now.
    public static var standard: Deadline { after(standardWait) }

    /// `seconds` from now.
    public static func seconds(_ seconds: Double) -> Deadline { after(.milliseconds(Int64(seconds * 1000))) }

    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Time left (zero once passed).
    public var remaining: Duration { max(.zero, instant - ContinuousClock.now) }

    /// Time left in whole milliseconds, for poll(2) and friends.
    public var remainingMilliseconds: Int32 {
        let parts = remaining.components
        return Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
    }

    /// `remaining` as a `Date` for Foundation waits.
    public var date: Date {
        let parts = remaining.components
        return Date(timeIntervalSinceNow: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.instant < rhs.instant }
}

/// What a wait throws when its deadline passes first.
public struct TimeoutError: Error, CustomStringConvertible {
    public let what: String
    public init(_ what: String) { self.what = what }
    public var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` (every `interval`) until it holds; throws `TimeoutError` at the deadline.
/// Blocks the calling thread: prefer `waitUntil` in async tests.
public func blockingWaitUntil(
    _ what: String = "condition", deadline: Deadline = .standard, interval: Duration = .milliseconds(2),
    _ condition: () throws -> Bool
) throws {
    while true {
        if try condition() { return }
        if deadline.hasPassed { throw TimeoutError(what) }
        let parts = interval.components
        usleep(useconds_t(parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000))
    }
}

/// Polls `condition` (every `interval`, suspending between polls) until it holds; throws
/// `TimeoutError` at the deadline.
public func waitUntil(
    _ what: String = "condition", deadline: Deadline = .standard, interval: Duration = .milliseconds(2),
    _ condition: () async throws -> Bool
) async throws {
    while true {
        if try await condition() { return }
        if deadline.hasPassed { throw TimeoutError(what) }
        try await Task.sleep(for: interval)
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass (by default as long
/// as `Deadline.standardWait`); returns whether it held. Blocks the calling thread; for
/// `#expect(eventually { … })` in synchronous tests.
public func eventually(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
    (try? blockingWaitUntil(deadline: .seconds(timeout), interval: .milliseconds(10), condition)) != nil
}
