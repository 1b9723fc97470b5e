// AttributionStoreFile: attribution.json on disk — read once at start, replaced atomically after each change.
import ActivityKit
import Dispatch
import Glibc
import SystemSupport

/// Reads and writes `$XDG_STATE_HOME/activity-broker/attribution.json`.
///
/// The content is `AttributionStoreFormat.file`: sites, source ids, trigger data and days,
/// nothing else. Writes go through `AtomicFile` (temporary file, fsync, rename), so a crash
/// mid-write leaves the old file or the new one; mode 0600 in a 0700 directory. The caps of
/// `AttributionStore` bound it (about 200 KiB at most); a larger file is not read.
/// Blocking I/O on a small file: called on the broker's loop, once per click, trigger or report.
struct AttributionStoreFile: Sendable {
    let path: String
    let log: BrokerLog

    /// The stored clicks and reports. A missing file is an empty store; an unreadable or
    /// corrupt one is nil and one log line (the caller starts empty; the file is replaced at
    /// the next write, and until then it may hold anything).
    func load() -> AttributionStore? {
        AtomicFile.removeLeftovers(of: path)
        let data: [UInt8]
        do {
            data = try SystemCalls.readFile(path, limit: AttributionStoreFormat.maximumFileSize)
        } catch where error.code == ENOENT {
            return AttributionStore()
        } catch {
            log.event("click measurement file \(path) is unreadable; starting empty (\(error))")
            return nil
        }
        guard let store = AttributionStoreFormat.store(fromFile: data) else {
            // Kept aside, not overwritten by the next save: what it held may still be read.
            let aside = path + ".corrupt"
            let moved = rename(path, aside) == 0
            log.event("click measurement file \(path) is corrupt; starting empty\(moved ? " (kept as \(aside))" : "")")
            return nil
        }
        return store
    }

    /// Replaces the file with `store`; a failure is logged and the next change tries again.
    /// Returns whether the file now holds `store`.
    @discardableResult
    func save(_ store: AttributionStore) -> Bool {
        do {
            try AtomicFile.write(AttributionStoreFormat.file(store), to: path, permissions: 0o600)
            return true
        } catch {
            log.event("could not write \(path): \(error)")
            return false
        }
    }
}
