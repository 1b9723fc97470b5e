// Availability per activity, kept until the registry or the machine changes.

/// Remembers each activity's `Availability` so that a request checks no requirement twice.
///
/// A value owned by one loop. Empty it when the registry changes (`removeAll`); when the
/// machine changes, `machineChanged` tells whether that changed what any remembered activity
/// answers, which is when clients need to hear of it.
public struct AvailabilityCache: Sendable {
    private var answers: [ActivityID: Availability] = [:]

    public init() {}

    /// Whether `activity` can run in `env`, remembered until emptied.
    public mutating func availability(of activity: Activity, in env: some Environment) -> Availability {
        if let cached = answers[activity.id] { return cached }
        let availability = activity.availability(in: env)
        answers[activity.id] = availability
        return availability
    }

    /// Forgets every answer.
    public mutating func removeAll() {
        answers.removeAll(keepingCapacity: true)
    }

    /// Forgets every answer (a program appeared on PATH, a bus name changed owner) and returns
    /// whether any activity of `registry` answered before would now answer the other way.
    /// Answers for those activities are remembered again.
    public mutating func machineChanged(_ registry: Registry, in env: some Environment) -> Bool {
        let before = answers
        answers.removeAll(keepingCapacity: true)
        return before.contains { id, old in
            guard let activity = registry.activity(id) else { return false }
            return availability(of: activity, in: env).isAvailable != old.isAvailable
        }
    }
}
