// ManifestLoader: reads and decodes one manifest directory on every core, with a deterministic result.
import ActivityKit
import Dispatch
import Glibc
import Locking

/// Reads and decodes the manifests of one directory, the files spread over
/// `DispatchQueue.concurrentPerform` (10,000 manifests are I/O and JSON work that one thread
/// does in ~0.5 s); no state is shared between the workers until their results are merged.
///
/// The result does not depend on the scheduling: files are listed sorted, split into
/// contiguous chunks, and merged in file-name order, so the same files always give the same
/// entries, problems and read paths in the same order. Each chunk shares equal parts of its
/// activities through its own `ActivityInterner`.
///
/// The reader's limits hold: the names listed are capped, and the workers stop reading once
/// `byteBudget` bytes were read between them. The result is then the files in name order up
/// to the first one left unread, with one problem naming the directory; which files made it
/// depends on the threads, but only for a directory over the budget (64 MiB of manifests).
struct ManifestLoader: Sendable {
    /// What one directory gave.
    struct Loaded: Sendable {
        /// File name → what the file holds (broken files are left out).
        var entries: [String: StaticEntry] = [:]
        /// Files skipped (full path), and why, in file-name order.
        var problems: [(file: String, message: String)] = []
        /// The file names of the manifests decoded without a problem, in order.
        ///
        /// Names, not full paths: a path is a heap string per manifest (the directory is
        /// long), kept by the workers until the merge, among the activities they decode; freed
        /// after it, they left a megabyte of holes in the heap at 10,000 manifests.
        var readNames: [String] = []
        /// The directory read.
        var directory = ""

        /// Manifests decoded without a problem (full paths), in file-name order.
        var readPaths: [String] { readNames.map { directory + "/" + $0 } }
    }

    let directory: String
    let origin: ActivityOrigin
    var reader = ManifestDirectoryReader()

    /// Files per chunk at least: fewer files are not worth a thread's start.
    static let minimumChunk = 64

    func load() -> Loaded {
        let listed = reader.fileNames(in: directory)
        let names = listed.names
        let chunkCount = max(1, min(names.count / Self.minimumChunk, Self.workers * 4))
        let chunkSize = (names.count + chunkCount - 1) / max(chunkCount, 1)
        let results = ChunkResults(count: chunkCount)
        let bytesRead = Locked(0)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = min(names.count, chunk * chunkSize)..<min(names.count, (chunk + 1) * chunkSize)
            results.set(chunk, decode(names[range], bytesRead: bytesRead))
        }
        var loaded = Loaded(directory: directory)
        var chunks = results.take()
        // The first name left unread over the budget: it and every later name are dropped, so
        // that what is kept is a prefix of the sorted names.
        let unread = chunks.lazy.compactMap(\.firstUnread).first
        if let unread {
            for index in chunks.indices {
                chunks[index].entries.removeAll { $0.0 >= unread }
                chunks[index].problems.removeAll { $0.file >= directory + "/" + unread }
                chunks[index].readNames.removeAll { $0 >= unread }
            }
        }
        loaded.entries.reserveCapacity(chunks.reduce(0) { $0 + $1.entries.count })
        loaded.readNames.reserveCapacity(chunks.reduce(0) { $0 + $1.readNames.count })
        for chunk in chunks {
            for (name, entry) in chunk.entries { loaded.entries[name] = entry }
            loaded.problems += chunk.problems
            loaded.readNames += chunk.readNames
        }
        if listed.truncated { loaded.problems.append((directory, reader.namesCut)) }
        if let unread {
            let notRead = names.count - names.firstIndex(of: unread)!
            loaded.problems.append((directory, reader.bytesCut(notRead: notRead)))
        }
        return loaded
    }

    /// Reads and decodes `names`, in order, while fewer than the reader's byte budget have
    /// been read by all workers together (`bytesRead`).
    private func decode(_ names: ArraySlice<String>, bytesRead: Locked<Int>) -> ChunkResults.Chunk {
        var interner = ActivityInterner()
        var entries: [(String, StaticEntry)] = []
        var problems: [(file: String, message: String)] = []
        var readNames: [String] = []
        entries.reserveCapacity(names.count)
        readNames.reserveCapacity(names.count)
        for name in names {
            guard bytesRead.value < reader.byteBudget else {
                return (entries, problems, readNames, name)
            }
            let data: [UInt8]
            switch reader.read(name, in: directory) {
            case .success(let read):
                data = read
                bytesRead.withLock { $0 += read.count }
            case .failure(let error):
                problems.append((directory + "/" + name, "\(error)"))
                continue
            }
            if Manifest.isMask(data) {
                entries.append((name, .masked))
                continue
            }
            do {
                var activity = try Manifest.decode(data, fileName: name, origin: origin)
                interner.intern(&activity)
                entries.append((name, .activity(activity)))
                readNames.append(name)
            } catch {
                problems.append((directory + "/" + name, error.message))
            }
        }
        return (entries, problems, readNames, nil)
    }

    /// The processors online (threads `concurrentPerform` will use).
    static let workers = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// One slot per chunk, each written by exactly one worker, read after all have finished.
    ///
    /// `@unchecked Sendable`: `concurrentPerform` gives every index to one worker only, so no
    /// slot is written twice or concurrently, and `take` runs after `concurrentPerform` has
    /// returned (which orders every write before it). The slots are raw memory, not an array:
    /// a write to one element of a Swift array is a modifying access to the whole array, a
    /// race between workers (ThreadSanitizer reported it) even when the elements differ.
    private final class ChunkResults: @unchecked Sendable {
        /// What one chunk decoded, and the first of its names left unread over the budget.
        typealias Chunk = (
            entries: [(String, StaticEntry)], problems: [(file: String, message: String)],
            readNames: [String],
            firstUnread: String?
        )
        private let slots: UnsafeMutableBufferPointer<Chunk?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func set(_ index: Int, _ chunk: Chunk) { (slots.baseAddress! + index).pointee = chunk }

        func take() -> [Chunk] { slots.map { $0! } }
    }
}
