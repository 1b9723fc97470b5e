// The usage ranking's scores, kept in $XDG_STATE_HOME/activity-broker/usage.json.
import ActivityKit
import Dispatch
import Glibc

/// Holds `UsageScores` and writes them atomically, debounced, never with a URL in them:
/// the file holds exactly the domain's `UsageScores` (ids, scores, times of last use).
/// Loop-confined. A use only marks the scores dirty; they are encoded at most once per
/// `writeDelay` (a burst of jobs costs one encoding), and at once by `flush()`.
final class UsageStore: @unchecked Sendable {
    static let writeDelay: DispatchTimeInterval = .seconds(1)
    private let file: UsageStoreFile
    private let queue: DispatchQueue
    private let path: String
    private let log: BrokerLog
    private(set) var scores = UsageScores(entries: [:])
    private var dirty = false
    private var writeScheduled = false
    /// Uses counted since the file was last read, re-applied by `reloadKeepingOwnUses`; kept
    /// only while a replaced broker may still write the file (`expectReload`).
    private var usesSinceLoad: [(id: ActivityID, at: Timestamp)] = []
    private var tracksOwnUses = false
    private var clearedSinceLoad = false
    /// Whether the scores are empty and the file holds no uses either (it is missing, was read
    /// empty, or the write of a `clear()` is scheduled): another `clear()` has nothing to do.
    private var holdsNothing = false

    init(path: String, queue: DispatchQueue, log: BrokerLog) {
        self.path = path
        self.queue = queue
        self.log = log
        // The debounce is ours (`writeDelay`), so the file writes as soon as it is handed data.
        self.file = UsageStoreFile(path: path, queue: queue, delay: 0) { error in
            log.event("could not write \(BrokerLog.printable(path)): \(BrokerLog.printable("\(error)"))")
        }
    }

    /// Starts keeping this broker's uses for `reloadKeepingOwnUses` (a predecessor is leaving).
    func expectReload() { tracksOwnUses = true }

    /// Reads the file; a missing one starts empty silently, a corrupt one with one log line.
    func load() {
        holdsNothing = false
        do {
            guard let data = try file.load() else {
                holdsNothing = scores.entries.isEmpty
                return
            }
            scores = try UsageFileFormat.decode(data)
            holdsNothing = scores.entries.isEmpty
            // A file from before the cap (or edited by hand) is brought under it, least used first.
            if scores.prune(keepingAtMost: UsageScores.maxEntries, at: Timestamp.now()) > 0 { save() }
        } catch {
            log.event(
                "usage file \(BrokerLog.printable(path)) is unreadable or corrupt; starting with empty usage (\(BrokerLog.printable("\(error)")))"
            )
            scores = UsageScores(entries: [:])
        }
    }

    func recordUse(of id: ActivityID, at now: Timestamp) {
        scores.recordUse(of: id, at: now)
        holdsNothing = false
        if tracksOwnUses { usesSinceLoad.append((id, now)) }
        save()
    }

    /// Reads the file again and re-applies the uses counted since the last read: a broker
    /// replaced with `--replace` writes its last uses on its way out, after its successor
    /// first read the file. Skipped after `clear()`, which the user meant to stick.
    func reloadKeepingOwnUses() {
        guard !clearedSinceLoad else { return }
        let own = usesSinceLoad
        scores = UsageScores(entries: [:])  // a missing file leaves them untouched
        load()
        for use in own { scores.recordUse(of: use.id, at: use.at) }
        usesSinceLoad = []
        tracksOwnUses = false
        if !own.isEmpty {
            holdsNothing = false
            save()
        }
    }

    /// Forgets every score (`ClearHistory`) and rewrites the file before it returns: a user who
    /// asked to forget finds it forgotten on disk at once. Nothing at all when there is nothing
    /// to forget (`holdsNothing`): any connection may call `ClearHistory`, and a write with fsync
    /// on the loop for each call let a loop of them stall every client; after the first, they
    /// cost nothing until a job completes again. Returns whether there was anything.
    @discardableResult
    func clear() -> Bool {
        clearedSinceLoad = true
        usesSinceLoad = []
        guard !holdsNothing else { return false }
        scores = UsageScores(entries: [:])
        holdsNothing = true
        save()
        flush()
        return true
    }

    /// Writes pending changes now (shutdown).
    func flush() {
        encodeIfDirty()
        do { try file.flush() } catch {
            log.event("could not write \(BrokerLog.printable(path)): \(BrokerLog.printable("\(error)"))")
        }
    }

    private func save() {
        dirty = true
        guard !writeScheduled else { return }
        writeScheduled = true
        queue.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in
            writeScheduled = false
            encodeIfDirty()
        }
    }

    private func encodeIfDirty() {
        guard dirty else { return }
        dirty = false
        do {
            file.schedule(try UsageFileFormat.encode(scores))
        } catch {
            log.event("could not encode usage: \(error)")
        }
    }
}
