// MachineChange: what changed on the machine, so that only the activities depending on it are checked again.

/// A change of the machine as the availability rules see it (`Environment`).
///
/// The service names what changed so that `AvailabilityCache.machineChanged` re-checks only the
/// activities that depend on it: a client owning and releasing a name of its own in a loop then
/// costs a dictionary lookup per signal, not a walk over every activity.
public enum MachineChange: Hashable, Sendable {
    /// Programs on PATH may have come or gone.
    case programs
    /// These well-known bus names gained or lost an owner, or became or stopped being activatable.
    case busNames(Set<String>)
}
