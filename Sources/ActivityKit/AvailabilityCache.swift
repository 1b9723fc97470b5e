// Availability per activity, kept until the registry or the machine changes, indexed by what it depends on.

/// Remembers each activity's `Availability` so that a request checks no requirement twice.
///
/// A value owned by one loop. Empty it when the registry changes (`removeAll`); when the
/// machine changes, `machineChanged` re-checks only the remembered activities that depend on
/// what changed (each answer is indexed by the bus names it asked about and whether it looked
/// for programs) and tells whether any of them now answers the other way, which is when
/// clients need to hear of it.
public struct AvailabilityCache: Sendable {
    private struct Answer: Sendable {
        var availability: Availability
        var busNames: Set<String>
        var needsPrograms: Bool
    }

    private var answers: [ActivityID: Answer] = [:]
    /// Bus name → the remembered activities whose answer depends on it.
    private var dependentsByBusName: [String: Set<ActivityID>] = [:]
    /// The remembered activities whose answer depends on programs on PATH.
    private var dependentsOnPrograms: Set<ActivityID> = []

    public init() {}

    /// How many answers are remembered.
    public var count: Int { answers.count }

    /// Whether `activity` can run in `env`, remembered until emptied.
    public mutating func availability(of activity: Activity, in env: some Environment) -> Availability {
        if let cached = answers[activity.id] { return cached.availability }
        let answer = Answer(
            availability: activity.availability(in: env), busNames: activity.busNameDependencies,
            needsPrograms: activity.dependsOnPrograms)
        answers[activity.id] = answer
        for name in answer.busNames { dependentsByBusName[name, default: []].insert(activity.id) }
        if answer.needsPrograms { dependentsOnPrograms.insert(activity.id) }
        return answer.availability
    }

    /// Forgets every answer.
    public mutating func removeAll() {
        answers.removeAll(keepingCapacity: true)
        dependentsByBusName.removeAll(keepingCapacity: true)
        dependentsOnPrograms.removeAll(keepingCapacity: true)
    }

    /// Forgets the answers of `ids` (activities that were registered, replaced or removed).
    public mutating func remove(_ ids: some Sequence<ActivityID>) {
        for id in ids { _ = forget(id) }
    }

    /// Forgets every answer (the machine changed in a way not named) and returns whether any
    /// activity of `registry` answered before would now answer the other way.
    public mutating func machineChanged(_ registry: Registry, in env: some Environment) -> Bool {
        recheck(Array(answers.keys), registry, env)
    }

    /// Re-checks the remembered activities that depend on `change` (no other) and returns whether
    /// any of them now answers the other way. Their answers are remembered again.
    public mutating func machineChanged(
        _ change: MachineChange, _ registry: Registry, in env: some Environment
    ) -> Bool {
        switch change {
        case .programs:
            return recheck(Array(dependentsOnPrograms), registry, env)
        case .busNames(let names):
            var ids: Set<ActivityID> = []
            for name in names { ids.formUnion(dependentsByBusName[name] ?? []) }
            return recheck(Array(ids), registry, env)
        }
    }

    /// Forgets the answers of `ids` first (so a check never sees a stale one), then asks again.
    private mutating func recheck(_ ids: [ActivityID], _ registry: Registry, _ env: some Environment) -> Bool {
        var before: [ActivityID: Bool] = [:]
        for id in ids {
            guard let old = forget(id) else { continue }
            before[id] = old.availability.isAvailable
        }
        var flipped = false
        for (id, wasAvailable) in before {
            guard let activity = registry.activity(id) else { continue }
            if availability(of: activity, in: env).isAvailable != wasAvailable { flipped = true }
        }
        return flipped
    }

    private mutating func forget(_ id: ActivityID) -> Answer? {
        guard let old = answers.removeValue(forKey: id) else { return nil }
        for name in old.busNames {
            dependentsByBusName[name]?.remove(id)
            if dependentsByBusName[name]?.isEmpty == true { dependentsByBusName[name] = nil }
        }
        if old.needsPrograms { dependentsOnPrograms.remove(id) }
        return old
    }
}
