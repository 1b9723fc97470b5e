// The reading list file: entries added by the "Add to Reading List" activity.
import Foundation

/// One saved page.
struct ReadingListEntry: Codable, Equatable {
    var url: String
    var title: String?
    var added: Date
}

/// `$XDG_DATA_HOME/activity-broker/reading-list.json`: a JSON array of entries, written
/// atomically (temporary file, fsync, rename). A file that cannot be parsed is kept aside as
/// `reading-list.json.corrupt-<time>` rather than overwritten, and a new list starts.
struct ReadingList {
    let path: String

    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        if !dataHome.hasPrefix("/") { dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share" }
        return dataHome + "/activity-broker/reading-list.json"
    }

    /// The saved entries; an unreadable file is renamed aside and reported through `aside`.
    func load(aside: (String) -> Void = { _ in }) throws -> [ReadingListEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        do {
            return try Self.decoder.decode([ReadingListEntry].self, from: data)
        } catch {
            let kept = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try FileManager.default.moveItem(atPath: path, toPath: kept)
            aside(kept)
            return []
        }
    }

    /// Adds the URL unless it is already there; returns the number of entries.
    func add(url: String, title: String?, now: Date = Date(), aside: (String) -> Void = { _ in }) throws -> Int {
        var entries = try load(aside: aside)
        guard !entries.contains(where: { $0.url == url }) else { return entries.count }
        entries.append(ReadingListEntry(url: url, title: title, added: now))
        try write(entries)
        return entries.count
    }

    private func write(_ entries: [ReadingListEntry]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())"
        let data = try Self.encoder.encode(entries)
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: temporary)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
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
