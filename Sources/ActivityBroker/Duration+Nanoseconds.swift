// Duration in whole nanoseconds: the broker's clocks (job afterlife, gesture window) become Dispatch deadlines.

extension Duration {
    /// Whole nanoseconds, for Dispatch deadlines (`JobTable`'s afterlife, `BrowsingSessions`'
    /// gesture window).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
