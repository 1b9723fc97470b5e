// ActivityTable: activities by id in one flat open-addressed table, built once, for the registry's static set.

/// A read-only map from id to activity, stored as one array of activities (8 bytes a slot:
/// an `Activity` is one reference, and its id is in its record), probed linearly.
///
/// The registry's static set is replaced whole on each catalog read and never changed in
/// between, so it needs no removal. A `[ActivityID: Activity]` kept the key beside the value
/// (24 bytes a slot, ~390 kB at 10,000 activities); this keeps a third of that. A lookup hashes
/// the id once and compares ids only where the hash's slot is taken, as a dictionary does.
struct ActivityTable: Sendable {
    /// Power-of-two capacity, at most 3/4 full (nil: empty slot).
    private let slots: [Activity?]
    /// How many activities there are.
    let count: Int

    /// An empty table.
    init() {
        slots = []
        count = 0
    }

    /// The activities of `byID` (each under its own id).
    init(_ byID: [ActivityID: Activity]) {
        count = byID.count
        guard !byID.isEmpty else {
            slots = []
            return
        }
        var capacity = 8
        while capacity * 3 < byID.count * 4 { capacity *= 2 }
        let mask = capacity - 1
        var slots = [Activity?](repeating: nil, count: capacity)
        for (id, activity) in byID {
            precondition(activity.id == id, "an activity is stored under its own id")
            var slot = id.hashValue & mask
            while slots[slot] != nil { slot = (slot + 1) & mask }
            slots[slot] = activity
        }
        self.slots = slots
    }

    /// The activity with `id`, if any.
    subscript(id: ActivityID) -> Activity? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while let activity = slots[slot] {
            if activity.id == id { return activity }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Every activity, in no particular order.
    var activities: some Sequence<Activity> { slots.lazy.compactMap { $0 } }
}
