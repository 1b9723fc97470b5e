// A D-Bus-activated service's exit when idle, taken only with no call on its way in: the sheet's, the browser's, the reading list's.
import DBus
import Dispatch
import Foundation
import Synchronization

/// Ends the process of a D-Bus-activated service (`activity-sheet`, `activity-browser`,
/// `activity-reading-list`) when its `IdleExit` finds it idle — but only when no call is on its
/// way in, so that a call that reached the process is answered rather than dropped by the exit;
/// the bus starts the service again for the next one.
///
/// `Connection.whenQuiet` sees what the loop holds (a call read and unhandled, a reply awaited);
/// a handler that takes a call off the loop (to the main thread, to a task) counts it here with
/// `began` and `ended` until it has answered.
public final class QuietExit: Sendable {
    private let connection: Connection
    private let log: @Sendable (String) -> Void
    /// Calls taken off the loop and not yet answered.
    private let inFlight = Atomic<Int>(0)

    /// `log` writes the service's own log line ("idle: exiting").
    public init(connection: Connection, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.log = log
    }

    /// A call arrived whose handler answers it off the loop. Any thread; on the loop before the
    /// handler returns, so that `whenQuiet` cannot see the loop idle in between.
    public func began() {
        inFlight.add(1, ordering: .sequentiallyConsistent)
    }

    /// A call counted by `began` was answered (or refused). Any thread, after the reply was sent.
    public func ended() {
        inFlight.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Whether no counted call is in flight now (the loop may still hold one: `exitIfIdle` asks it).
    public var nothingInFlight: Bool {
        inFlight.load(ordering: .sequentiallyConsistent) == 0
    }

    /// An `IdleExit`'s `onIdle`: exits the process (status 0) with the D-Bus loop held when no
    /// call is on its way in — none read and unhandled, none awaiting a reply the loop waits for
    /// (`Connection.whenQuiet`), none counted by `began` — so no message can be taken in between.
    /// Returns false when one is: the idle exit then waits another round. Main thread.
    @MainActor
    public func exitIfIdle() -> Bool {
        var idle = false
        let quiet = connection.whenQuiet {
            idle = nothingInFlight
            if idle {
                log("idle: exiting")
                exit(0)
            }
        }
        return quiet && idle
    }
}
