// Finished jobs during their afterlife (API.md §6): 32 bytes each in one flat ring, found by token through an open-addressed index, swept oldest first.
import ActivityBrokerInterface
import ActivityKit

/// What the broker keeps of a job once `Finished` was sent, so that its caller can still read
/// `State` and `ActivityId` for the afterlife (60 s): a few bytes per job, not an object.
///
/// Layout, and why: every row lives equally long, so rows expire in the order they were added.
/// They sit in that order in one ring of 32-byte slots (the token, the expiry, the activity and
/// the caller as numbers into two `InternTable`s, the end state in three bits), and one sweep
/// from the oldest end removes them. A second flat array, twice the ring's size, finds a row by
/// its token: linear probing on the token's low bits, which are uniformly random (tokens are
/// 128 random bits, and no client picks a stored one), so no hashing is needed. Deleting the
/// oldest row shifts its probe chain back, so the index has no tombstones and a lookup stays
/// O(1) however many rows came and went. 10,000 rows take 16,384 slots and 32,768 index
/// entries: 640 KB mapped, where a dictionary of tokens to rows and its order took 1.3 MB.
/// Both arrays are `PageBuffer`s: the ring's unwritten tail is not resident, and a buffer the
/// table outgrew goes back to the system at once instead of staying in the malloc heap.
///
/// Bounded by time and by count: the ring doubles when full and halves when a quarter full, so
/// it holds what an afterlife's worth of `Perform`s left, and an empty table frees its storage;
/// past `maximumRows` (callers performing faster than ~2,000 jobs a second for a whole
/// afterlife) the oldest row leaves before its afterlife ends, so no rate of calls can grow it
/// further. Owned by `JobTable` (not copyable: it owns its pages),
/// loop-confined with it.
struct FinishedJobs: ~Copyable {
    /// One finished job, as it is added and read.
    struct Row: Equatable {
        let state: JobState
        let activityID: ActivityID?
        /// The only connection that may read the row.
        let caller: String
        /// Uptime (`DispatchTime` nanoseconds) from which the row is gone.
        let expiry: UInt64
    }

    /// One row as stored: 32 bytes, no reference.
    private struct Slot {
        var token: UInt128
        var expiry: UInt64
        /// The activity's number in `activities` plus one; 0 for none.
        var activity: UInt32
        /// The caller's number in `callers`, shifted left by 3, or'ed with the state's code.
        var callerAndState: UInt32
    }

    /// The smallest ring allocated.
    static let minimumCapacity = 16
    /// The most rows kept (a power of two): 4 MB of ring and 1 MB of index at most.
    static let maximumRows = 1 << 17

    /// The rows oldest first from `first`, wrapping; the count is a power of two (or 0).
    private var slots = PageBuffer<Slot>(count: 0)
    private var first = 0
    /// Rows kept (some may have expired and wait for the next sweep).
    private(set) var count = 0
    /// Ring position plus one of the row whose token probes here; 0 for none. Twice the ring.
    private var index = PageBuffer<UInt32>(count: 0)
    private var activities = InternTable<ActivityID>()
    private var callers = InternTable<String>()

    /// Slots allocated (a power of two, or 0): what the table costs, for tests.
    var capacity: Int { slots.count }

    /// Adds a row; its expiry must not be earlier than the previous row's. A token added again
    /// (never, with random tokens) answers with its newer row from then on.
    mutating func insert(_ token: JobToken, _ row: Row) {
        if count == Self.maximumRows { removeOldest() }
        if count == slots.count { relayout(capacity: max(Self.minimumCapacity, slots.count * 2)) }
        let caller = callers.retain(row.caller)
        precondition(caller < 1 << 29, "more distinct callers than a row can name")
        let position = (first + count) & (slots.count - 1)
        slots[position] = Slot(
            token: token.bits, expiry: row.expiry,
            activity: row.activityID.map { activities.retain($0) + 1 } ?? 0,
            callerAndState: caller << 3 | Self.code(row.state))
        count += 1
        link(position)
    }

    /// The row of `token` while its afterlife lasts at `now`: an expired row not yet swept is
    /// gone already.
    func row(_ token: JobToken, at now: UInt64) -> Row? {
        guard let found = find(token.bits) else { return nil }
        let slot = slots[Int(index[found]) - 1]
        guard now < slot.expiry else { return nil }
        return Row(
            state: Self.state(slot.callerAndState & 7),
            activityID: slot.activity == 0 ? nil : activities[slot.activity - 1],
            caller: callers[slot.callerAndState >> 3], expiry: slot.expiry)
    }

    /// Removes the rows expired at `now`; returns when the oldest remaining one expires (nil
    /// when none is left).
    mutating func sweep(at now: UInt64) -> UInt64? {
        while count > 0, slots[first].expiry <= now { removeOldest() }
        if count == 0 {
            // A burst is over: give its storage back instead of keeping it for the next.
            slots = PageBuffer(count: 0)
            index = PageBuffer(count: 0)
            first = 0
            return nil
        }
        if slots.count > Self.minimumCapacity, count <= slots.count / 4 {
            relayout(capacity: slots.count / 2)
        }
        return slots[first].expiry
    }

    // MARK: The index

    private var indexMask: Int { index.count - 1 }

    /// Where `token` starts probing.
    private func home(_ token: UInt128) -> Int { Int(truncatingIfNeeded: token) & indexMask }

    /// The index entry of `token`, nil when no row has it.
    private func find(_ token: UInt128) -> Int? {
        guard index.count > 0 else { return nil }
        var probe = home(token)
        while index[probe] != 0 {
            if slots[Int(index[probe]) - 1].token == token { return probe }
            probe = (probe + 1) & indexMask
        }
        return nil
    }

    /// Makes the index find the row at `position` by its token (replacing an older row's
    /// entry for the same token).
    private mutating func link(_ position: Int) {
        let token = slots[position].token
        var probe = home(token)
        while index[probe] != 0, slots[Int(index[probe]) - 1].token != token {
            probe = (probe + 1) & indexMask
        }
        index[probe] = UInt32(position + 1)
    }

    /// Empties index entry `hole`, moving back each later entry of its probe chain that may
    /// sit there (one whose home is not between the hole and itself), so that no lookup
    /// stops early at the emptied entry.
    private mutating func unlink(_ hole: Int) {
        var hole = hole
        var probe = hole
        while true {
            probe = (probe + 1) & indexMask
            let entry = index[probe]
            if entry == 0 { break }
            let fromHome = (probe - home(slots[Int(entry) - 1].token)) & indexMask
            if fromHome >= (probe - hole) & indexMask {
                index[hole] = entry
                hole = probe
            }
        }
        index[hole] = 0
    }

    // MARK: The ring

    private mutating func removeOldest() {
        let slot = slots[first]
        // A token added twice has its entry on the newer row: leave it.
        if let found = find(slot.token), Int(index[found]) - 1 == first { unlink(found) }
        if slot.activity != 0 { activities.release(slot.activity - 1) }
        callers.release(slot.callerAndState >> 3)
        first = (first + 1) & (slots.count - 1)
        count -= 1
    }

    /// Moves the rows, oldest first, to the start of a ring of `capacity` slots with an index
    /// twice that size.
    private mutating func relayout(capacity: Int) {
        var moved = PageBuffer<Slot>(count: capacity)
        for offset in 0..<count { moved[offset] = slots[(first + offset) & (slots.count - 1)] }
        slots = moved
        first = 0
        index = PageBuffer(count: capacity * 2)
        for position in 0..<count { link(position) }
    }

    // MARK: States

    private static func code(_ state: JobState) -> UInt32 {
        switch state {
        case .choosing: 0
        case .running: 1
        case .completed: 2
        case .cancelled: 3
        case .failed: 4
        }
    }

    private static func state(_ code: UInt32) -> JobState {
        switch code {
        case 0: .choosing
        case 1: .running
        case 2: .completed
        case 3: .cancelled
        default: .failed
        }
    }
}
