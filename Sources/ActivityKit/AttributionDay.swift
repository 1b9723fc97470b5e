// AttributionDay: a calendar day (UTC), the finest time Private Click Measurement ever writes down.

/// A day in UTC, counted from 1970-01-01 (day 0).
///
/// The store and the logs of click measurement say when something happens only to the day
/// (API.md §11: nothing finer than the delay is kept), so dates cross every boundary as this
/// type and are printed as `YYYY-MM-DD`. Exact instants (seconds since the epoch, from an
/// injected clock) live only in memory.
public struct AttributionDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let secondsPerDay = 86_400

    /// Days since 1970-01-01.
    public let number: Int

    public init(number: Int) { self.number = number }

    /// The day holding `instant` (seconds since the epoch, UTC).
    public init(containing instant: Int) {
        number = instant >= 0 ? instant / Self.secondsPerDay : (instant + 1) / Self.secondsPerDay - 1
    }

    /// The first second of the day.
    public var start: Int { number * Self.secondsPerDay }

    public func adding(days: Int) -> AttributionDay { AttributionDay(number: number + days) }

    public static func < (a: AttributionDay, b: AttributionDay) -> Bool { a.number < b.number }

    /// `YYYY-MM-DD` (proleptic Gregorian, `CivilCalendar`).
    public var description: String {
        let (year, month, day) = CivilCalendar.civil(fromDays: number)
        return Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
    }

    /// Parses `YYYY-MM-DD` exactly; nil for anything else (including impossible dates).
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let candidate = AttributionDay(number: CivilCalendar.days(fromCivil: year, month, day))
        // Rejects 2026-02-30 and the like: the round trip must give the same text.
        guard candidate.description == text else { return nil }
        self = candidate
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
