// Duration in whole nanoseconds: the package's clocks (call timeouts, a flush's wait, a job's afterlife) become Dispatch deadlines.
import Dispatch

extension Duration {
    /// Whole nanoseconds, for Dispatch deadlines (a call's timeout, `flush(timeout:)`, the
    /// broker's job afterlife and gesture window). `package`: not part of DBus's API for apps.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// As a Dispatch interval (negative durations are none).
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: max(0, nanoseconds)))
    }
}
