// The broker's registry and what of it can run here: the state every feature reads.
import ActivityKit
import Dispatch
import Glibc

/// The registry (static layers and registrations) with the availability of each activity on
/// this machine, and the default application of each URL scheme the static catalog found.
///
/// Loop-confined (`queue`): every feature runs on the broker's loop, so no locks. It tells
/// `onChange` what changed; it sends nothing on the bus itself.
final class ActivityState: @unchecked Sendable {
    /// What a change means for the answers built from this state.
    enum Change {
        /// The set of activities changed: every answer is stale and clients should hear of it.
        case activities
        /// One registration came, went or changed: the activities it showed before and shows
        /// after (an id's dynamic version, or the static one it shadowed). Answers about sites
        /// none of them matches are still right; clients should hear of it.
        case registration([Activity])
        /// Only availability answers may differ; no remembered activity changed its answer.
        case availability
    }

    private(set) var registry = Registry()
    /// Each URL scheme's default application (see `DefaultHandlerAliasing`).
    private(set) var schemeDefaults: [String: SchemeDefault] = [:]
    private var availabilityCache = AvailabilityCache()
    /// Machine changes not yet applied, and whether `machineChanged` is applying them.
    private var pendingMachineChanges: [MachineChange] = []
    private var walking = false
    private let machine: any Environment
    private let queue: DispatchQueue
    private let log: BrokerLog
    /// Called on the loop after every change.
    var onChange: ((Change) -> Void)?

    init(machine: any Environment, queue: DispatchQueue, log: BrokerLog) {
        self.machine = machine
        self.queue = queue
        self.log = log
    }

    /// Whether an activity's requirements hold, cached until the registry or machine changes.
    func availability(of activity: Activity) -> Availability {
        availabilityCache.availability(of: activity, in: machine)
    }

    /// The activity with this id as `caller` sees it, or `notFound`: another connection's
    /// `owner` activity does not exist for `caller` (the same answer as an unknown id, so
    /// that nothing tells it the id is taken).
    func lookUp(_ id: String, caller: String) throws(ActivityError) -> Activity {
        let activityID = try ActivityID(id)
        guard let activity = registry.activity(activityID),
            activity.visibility.isVisible(owner: activity.owner, to: caller)
        else {
            throw .notFound("no activity '\(id)' is registered (see ListRegistered or 'share activities')")
        }
        return activity
    }

    /// `Explain`'s verdict for the activity on the items, with this machine's answers.
    func explain(_ activity: Activity, items: Items) -> (applies: Bool, reason: String) {
        Explainer.explain(activity, items: items, env: machine)
    }

    // MARK: Changes

    /// The static catalog was (re)loaded.
    func setStatic(_ layers: [StaticLayer], schemeDefaults: [String: SchemeDefault]) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.schemeDefaults = schemeDefaults
        registry.setStaticLayers(layers)
        log.debug("static activities reloaded: \(registry.count) activities in all")
        changed()
    }

    /// Registers a dynamic activity of `owner` (see `Registry.register`).
    func register(_ activity: Activity, owner: String) throws(ActivityError) {
        let before = registry.activity(activity.id)
        try registry.register(activity, owner: owner)
        changed(activity.id, before: before)
    }

    /// Unregisters a dynamic activity (see `Registry.unregister`).
    func unregister(_ id: ActivityID, caller: String) throws(ActivityError) {
        let before = registry.activity(id)
        try registry.unregister(id, caller: caller)
        changed(id, before: before)
    }

    /// Removes every activity of `owner`; returns their ids.
    func removeAll(ownedBy owner: String) -> [ActivityID] {
        let removed = registry.removeAll(ownedBy: owner)
        if !removed.isEmpty { changed() }
        return removed
    }

    /// A program appeared on PATH or a bus name changed owner. Only the activities that depend
    /// on what changed are checked again. Clients hear `ActivitiesChanged` only when an activity
    /// they could have been offered came or went with it, not on every unrelated name change.
    ///
    /// Not re-entrant by construction: a change reported while a walk is in progress (which the
    /// machine's answers never cause, see `MachineEnvironment`) waits for the walk to end.
    func machineChanged(_ change: MachineChange) {
        dispatchPrecondition(condition: .onQueue(queue))
        pendingMachineChanges.append(change)
        guard !walking else { return }
        walking = true
        defer { walking = false }
        var flipped = false
        while !pendingMachineChanges.isEmpty {
            let next = pendingMachineChanges.removeFirst()
            if availabilityCache.machineChanged(next, registry, in: machine) { flipped = true }
        }
        if flipped {
            log.debug("the machine changed what is available")
            changed()
        } else {
            onChange?(.availability)
        }
    }

    /// The bus names to ask the machine about again before a `Perform` of `id` may be refused
    /// as unavailable: those its activity needs, when it is unavailable now; nil when there is
    /// nothing to wait for (an unknown id, an available activity, a machine that is not the
    /// bus). The caller bounds what it keeps before it waits (`refresh`).
    func namesToRefresh(beforePerforming id: String) -> Set<String>? {
        guard machine is MachineEnvironment, let activityID = try? ActivityID(id),
            let activity = registry.activity(activityID), !availability(of: activity).isAvailable
        else { return nil }
        return activity.busNameDependencies
    }

    /// Runs `then` once the machine has been asked again about those of `names` it does not
    /// know (`MachineEnvironment.refreshBeforeRefusing`; at once when it knows them all).
    func refresh(_ names: Set<String>, then: @escaping () -> Void) {
        guard let machine = machine as? MachineEnvironment else { return then() }
        machine.refreshBeforeRefusing(names, then: then)
    }

    private func changed() {
        availabilityCache.removeAll()
        onChange?(.activities)
    }

    /// One id's visible activity changed from `before` to what the registry shows now: only
    /// answers that involve either version are stale (a storm of registrations for other sites
    /// leaves every other site's ranking and availability in place).
    private func changed(_ id: ActivityID, before: Activity?) {
        let versions = [before, registry.activity(id)].compactMap { $0 }
        availabilityCache.remove([id])
        onChange?(.registration(versions))
    }
}
