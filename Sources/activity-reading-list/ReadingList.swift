// The reading list file: entries added by the "Add to Reading List" activity.
import Foundation
import SystemSupport

/// One saved page.
struct ReadingListEntry: Codable, Equatable {
    var url: String
    var title: String?
    var added: Date
}

/// `$XDG_DATA_HOME/activity-broker/reading-list.json`: a JSON array of entries, written
/// atomically (temporary file, fsync, rename). A file that cannot be parsed is kept aside as
/// `reading-list.json.corrupt-<time>` rather than overwritten, and a new list starts.
///
/// Bounded, since every entry is kept in memory and rewritten on each add: at most
/// `maxEntries` entries (a full list refuses new URLs), titles cut to `maxTitleLength`
/// characters, URLs within the broker's 32 KiB, and a file over `maxFileSize` is refused
/// rather than read. Only a missing file is an empty list: any other read error fails the
/// add and leaves the file alone, since writing then would replace every entry with one.
struct ReadingList {
    /// The most entries the list holds; adding a new URL to a full list throws `.full`.
    static let maxEntries = 10_000
    /// Longer titles are cut to this many characters, the last one an ellipsis.
    static let maxTitleLength = 1_000
    /// The longest URL accepted, in UTF-8 bytes: the broker's limit (API.md §2).
    static let maxURLLength = 32 * 1024
    /// The largest file read, in bytes: far above `maxEntries` full entries' worth in practice,
    /// and small enough that a planted or runaway file cannot exhaust memory.
    static let maxFileSize = 64 * 1024 * 1024

    let path: String

    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        if !dataHome.hasPrefix("/") { dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share" }
        return dataHome + "/activity-broker/reading-list.json"
    }

    /// The saved entries; a file that does not parse is renamed aside and reported through `aside`.
    /// - Throws: `ReadingListError.unreadable` when the file exists but cannot be read (so
    ///   `add` never overwrites it), `.tooLarge` when it is over `maxFileSize`.
    func load(aside: (String) -> Void = { _ in }) throws -> [ReadingListEntry] {
        AtomicFile.removeLeftovers(of: path)
        guard let data = try contents() else { return [] }
        do {
            return try Self.decoder.decode([ReadingListEntry].self, from: data)
        } catch {
            let kept = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try FileManager.default.moveItem(atPath: path, toPath: kept)
            aside(kept)
            return []
        }
    }

    /// The file's bytes, or nil when it does not exist (ENOENT alone: EACCES, EIO, a directory…
    /// throw), read within `maxFileSize` by SystemSupport's one careful reader.
    private func contents() throws(ReadingListError) -> Data? {
        do {
            return Data(try SystemCalls.readFile(path, limit: Self.maxFileSize))
        } catch where error.code == ENOENT {
            return nil
        } catch where error.code == EFBIG {
            throw .tooLarge(path: path)
        } catch {
            throw .unreadable(path: path, reason: String(cString: strerror(error.code)))
        }
    }

    /// Adds the URL unless it is already there; returns the number of entries.
    /// Throws `ReadingListError.full` when a new URL would exceed `maxEntries`.
    func add(url: String, title: String?, now: Date = Date(), aside: (String) -> Void = { _ in }) throws -> Int {
        var entries = try load(aside: aside)
        guard !entries.contains(where: { $0.url == url }) else { return entries.count }
        guard entries.count < Self.maxEntries else { throw ReadingListError.full }
        entries.append(ReadingListEntry(url: url, title: title.map(Self.capped), added: now))
        try write(entries)
        return entries.count
    }

    /// `title` cut to `maxTitleLength` characters (the last an ellipsis) when longer.
    static func capped(_ title: String) -> String {
        title.count <= maxTitleLength ? title : title.prefix(maxTitleLength - 1) + "…"
    }

    /// `url` when it is an http or https URL with a host, at most `maxURLLength` bytes and
    /// free of spaces and control characters; the broker checks the same, but a provider on
    /// the bus must not rely on every caller being the broker.
    static func checkedURL(_ url: String) throws(ReadingListError) -> String {
        if url.utf8.count > maxURLLength {
            throw .invalidURL("\(url.utf8.count) bytes long; at most \(maxURLLength) (32 KiB) are allowed")
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .invalidURL("contains a space or a control character")
        }
        let scheme = url.firstIndex(of: ":").map { url[..<$0].lowercased() } ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL("only http and https URLs are saved, not '\(scheme.prefix(40))'")
        }
        guard let host = URLComponents(string: url)?.host, !host.isEmpty else {
            throw .invalidURL("not a valid \(scheme) URL with a host")
        }
        return url
    }

    /// Temporary file, fsync, rename, directory fsync: SystemSupport's `AtomicFile`.
    private func write(_ entries: [ReadingListEntry]) throws {
        try AtomicFile.write(Array(try Self.encoder.encode(entries)), to: path, permissions: 0o600)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
