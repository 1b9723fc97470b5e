// How `share list` and `share activities` print activities: aligned text or stable JSON.
import ActivityBrokerClient
import Foundation

enum ActivityListing {
    /// `share list`: one activity a line — number, name, id — share first, as the broker ranked.
    static func table(_ activities: [OfferedActivity]) -> String {
        guard !activities.isEmpty else { return "No activity applies to this URL." }
        let width = activities.map(\.name.count).max() ?? 0
        return activities.enumerated().map { index, activity in
            let number = String(index + 1).leftPadded(to: String(activities.count).count)
            return "\(number)  \(activity.category == "share" ? "share " : "action")  \(activity.name.padded(to: width))  \(activity.id)"
        }.joined(separator: "\n")
    }

    /// `share activities`: every registered activity with availability and reason.
    static func registeredTable(_ activities: [OfferedActivity]) -> String {
        guard !activities.isEmpty else { return "No activity is registered." }
        let idWidth = activities.map(\.id.count).max() ?? 0
        return activities.map { activity in
            let mark = activity.available == false ? "unavailable" : "available  "
            var line = "\(mark)  \(activity.id.padded(to: idWidth))  \(activity.name) [\(activity.origin)]"
            if let reason = activity.reason, activity.available == false { line += " — \(reason)" }
            return line
        }.joined(separator: "\n")
    }

    /// The documented JSON form: an array of objects with `id`, `name`, `icon`, `category`,
    /// `origin`, and for `share activities` also `available` and (when unavailable) `reason`.
    static func json(_ activities: [OfferedActivity]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(activities)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
