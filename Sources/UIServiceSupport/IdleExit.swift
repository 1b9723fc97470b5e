// The UI services' idle exit: run a closure once nothing has been open for a while. Main thread.
import DBus
import Dispatch

/// Calls `onIdle` (the executable exits; D-Bus activation starts it again for the next call)
/// once `after` has passed with nothing open; when `onIdle` returns false (a call is on its way
/// in: `BrokerCallers.exitIfIdle`), it waits another `after`. Main thread only.
///
/// Each `cancel` or `schedule` starts a new generation: a pending timer from an older one does
/// nothing when it fires, so opening and closing a window restarts the wait.
@MainActor
public final class IdleExit {
    private let after: Duration?
    private let onIdle: @MainActor () -> Bool
    private var generation = 0

    /// `after` nil never exits on its own.
    public init(after: Duration?, onIdle: @escaping @MainActor () -> Bool) {
        self.after = after
        self.onIdle = onIdle
    }

    /// Something opened: a pending exit is called off.
    public func cancel() {
        generation += 1
    }

    /// Runs `onIdle` after `after` unless `cancel` or `schedule` is called meanwhile, or
    /// `isIdle` is false (or this `IdleExit` is gone) by then.
    public func schedule(while isIdle: @escaping @MainActor () -> Bool) {
        guard let after else { return }
        generation += 1
        let generation = generation
        DispatchQueue.main.asyncAfter(deadline: .now() + after.dispatchInterval) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.generation == generation, isIdle() else { return }
                if !self.onIdle() { self.schedule(while: isIdle) }
            }
        }
    }
}
