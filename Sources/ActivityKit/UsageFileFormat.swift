// UsageFileFormat: usage.json read and written by hand (the JSON parser of manifests, ISO 8601 in UTC), not through JSONDecoder and JSONEncoder.

/// The bytes of usage.json for `UsageScores`, and back.
///
/// Why not `JSONEncoder` / `JSONDecoder` with the ISO 8601 date strategy: for a file of at most
/// 2,000 entries they brought ~1.1 MB of FoundationEssentials code (Codable's machinery, date
/// formatting and parsing) into the broker's resident memory, measured with a usage.json
/// present (/proc/PID/smaps). The format is the one `JSONEncoder` wrote (`.sortedKeys`,
/// `.prettyPrinted`, `.iso8601`): an object `entries` of id → `{"lastUsed": time, "score":
/// number}`, times in UTC to the second (`2026-12-01T20:16:04Z`). Reading accepts what either
/// wrote, plus fractional seconds and `±hh:mm` offsets; any other shape is an error, so a
/// corrupt file is reported as before.
public enum UsageFileFormat {
    /// Why a usage file cannot be read or written.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The file's bytes: sorted ids, two-space indents, whole seconds.
    /// - Throws: `Problem` for a score that is not a finite number (JSON has none).
    public static func encode(_ scores: UsageScores) throws(Problem) -> [UInt8] {
        var out = "{\n  \"entries\" : {"
        var first = true
        for (id, entry) in scores.entries.sorted(by: { $0.key < $1.key }) {
            guard entry.score.isFinite else {
                throw Problem(description: "the score of '\(id)' is not a finite number")
            }
            out += first ? "\n" : ",\n"
            first = false
            out += "    " + JSONText.quoted(id, escapingSlashes: true) + " : {\n"
            out += "      \"lastUsed\" : \"" + iso8601(entry.lastUsed) + "\",\n"
            out += "      \"score\" : " + number(entry.score) + "\n    }"
        }
        out += first ? "\n\n  }\n}" : "\n  }\n}"
        return Array(out.utf8)
    }

    /// The scores in `data`.
    /// - Throws: `Problem` naming what is not as expected (not JSON, a missing or mistyped field).
    public static func decode(_ data: [UInt8]) throws(Problem) -> UsageScores {
        let document: JSONValue
        switch JSONValue.parseReportingError(data) {
        case .success(let value): document = value
        case .failure(let error): throw Problem(description: "not JSON at byte \(error.offset): \(error.reason)")
        }
        guard case .object(let top) = document, case .object(let list)? = top["entries"] else {
            throw Problem(description: "no 'entries' object")
        }
        var entries: [String: UsageEntry] = [:]
        entries.reserveCapacity(list.count)
        for (id, value) in list {
            guard case .object(let fields) = value else { throw Problem(description: "'\(id)' is not an object") }
            let score: Double
            switch fields["score"] {
            case .int(let n)?: score = Double(n)
            case .double(let d)?: score = d
            default: throw Problem(description: "'\(id)': 'score' is not a number")
            }
            guard case .string(let text)? = fields["lastUsed"], let lastUsed = date(iso8601: text) else {
                throw Problem(description: "'\(id)': 'lastUsed' is not an ISO 8601 time")
            }
            entries[id] = UsageEntry(score: score, lastUsed: lastUsed)
        }
        return UsageScores(entries: entries)
    }

    // MARK: Numbers and strings as JSONEncoder writes them

    /// The shortest text that reads back as `value`, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    // MARK: ISO 8601 in UTC

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ` (the second it falls in); a time no calendar date
    /// can hold (not finite, or past ±10¹⁵ s) as its number of seconds, where `Int` would trap.
    static func iso8601(_ date: Timestamp) -> String {
        guard date.secondsSince1970.isFinite, date.secondsSince1970.magnitude < 1e15 else {
            return number(date.secondsSince1970)
        }
        let seconds = Int((date.secondsSince1970).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    /// The time of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm|±hhmm)`; nil for anything else.
    static func date(iso8601 text: String) -> Timestamp? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var n = 0
            for byte in b[i..<(i + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                n = n * 10 + Int(byte - 0x30)
            }
            i += count
            return n
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
            expect(0x54) || expect(0x74), let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
            let second = digits(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if expect(0x2E) {
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if expect(0x5A) || expect(0x7A) {
            offset = 0
        } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(0x3A)
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = CivilCalendar.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Timestamp(secondsSince1970: Double(seconds) + fraction)
    }
}
