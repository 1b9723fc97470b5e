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

    /// `YYYY-MM-DD` (proleptic Gregorian, Howard Hinnant's civil-from-days).
    public var description: String {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
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
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let candidate = AttributionDay(number: era * 146_097 + dayOfEra - 719_468)
        // Rejects 2026-02-30 and the like: the round trip must give the same text.
        guard candidate.description == text else { return nil }
        self = candidate
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
