// Encodes activities as the `a{sv}` records of API.md §2.
import ActivityBrokerInterface
import ActivityKit
import DBus

enum ActivityRecord {
    /// The record `ListActivities` returns: id, localized name (the first of the caller's
    /// locale `candidates` it has, built once per request), icon, category, origin.
    static func offered(_ activity: Activity, candidates: LocaleCandidates) -> [String: Value] {
        [
            RecordKey.id: .string(activity.id.rawValue),
            RecordKey.name: .string(activity.localizedName(in: candidates)),
            RecordKey.icon: .string(activity.icon),
            RecordKey.category: .string(activity.category.rawValue),
            RecordKey.origin: .string(activity.origin.rawValue),
        ]
    }

    /// The record `ListRegistered` returns: the offered record plus `available`, and
    /// `reason` when it is not.
    static func registered(_ activity: Activity, availability: Availability, candidates: LocaleCandidates)
        -> [String: Value]
    {
        var record = offered(activity, candidates: candidates)
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
