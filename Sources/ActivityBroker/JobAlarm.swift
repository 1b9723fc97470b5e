// The job table's one timer: set for the earliest instant any job needs (a timeout, the end of an afterlife).
import Dispatch
import Glibc

/// One `DispatchSourceTimer` on the loop, set for the earliest deadline it was given since it
/// last fired; firing, it calls `fire`, which sets it again for what is left.
///
/// Why one: on Linux each timer a job set up and cancelled was a trip through libdispatch's
/// timer thread (a wake-up of another thread) on the path of every `Perform`, and each finished
/// job's afterlife was one more. Here a deadline later than the one already set (the usual case:
/// every job's timeout counts from its own start) costs a comparison. Loop-confined: `arm` is
/// called and `fire` runs on the timer's queue only (the `@unchecked Sendable` rests on that).
final class JobAlarm: @unchecked Sendable {
    /// The shortest time between two fires: a stream of jobs ending is swept in batches, not
    /// one wake-up per job. Deadlines are met within this much.
    static let grain: UInt64 = 100_000_000

    private let timer: any DispatchSourceTimer
    /// The uptime (`DispatchTime` nanoseconds) the timer is set for; nil while not set.
    private var armed: UInt64?
    private var lastFire: UInt64 = 0
    private let fire: () -> Void

    init(queue: DispatchQueue, fire: @escaping () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        self.fire = fire
        timer.setEventHandler { [unowned self] in
            armed = nil
            lastFire = DispatchTime.now().uptimeNanoseconds
            self.fire()
        }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Makes the timer fire at `deadline` (or `grain` after its last fire, if later) unless it is
    /// already set to fire earlier.
    func arm(at deadline: UInt64) {
        let when = max(deadline, lastFire + Self.grain)
        if let armed, armed <= when { return }
        armed = when
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: when), leeway: .milliseconds(10))
    }
}
