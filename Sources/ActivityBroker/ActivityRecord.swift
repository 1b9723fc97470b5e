// Encodes activities as the `a{sv}` records of API.md §2.
import ActivityBrokerInterface
import ActivityKit
import DBus

enum ActivityRecord {
    /// The record `ListActivities` returns: id, localized name, icon, category, origin.
    static func offered(_ activity: Activity, locale: String?) -> [String: Value] {
        [
            RecordKey.id: .string(activity.id.rawValue),
            RecordKey.name: .string(activity.localizedName(for: locale)),
            RecordKey.icon: .string(activity.icon),
            RecordKey.category: .string(activity.category.rawValue),
            RecordKey.origin: .string(activity.origin.rawValue),
        ]
    }

    /// The record `ListRegistered` returns: the offered record plus `available`, and
    /// `reason` when it is not.
    static func registered(_ activity: Activity, availability: Availability, locale: String?) -> [String: Value] {
        var record = offered(activity, locale: locale)
        switch availability {
        case .available:
            record[RecordKey.available] = .boolean(true)
        case .unavailable(let reason):
            record[RecordKey.available] = .boolean(false)
            record[RecordKey.reason] = .string(reason)
        }
        return record
    }
}
