// MatchIndexIDs: the ids under one key of the match index, stored without an allocation when there is one.

/// A set of activity ids that is usually a single id: a host's own activities are one or
/// two (every `site.example` glob of one app is a key of its own, whatever its schemes).
///
/// A `Set` of one id is a hashed table of its own (~135 bytes on the heap); 10,000 activities
/// with host globs made ~8,500 of them, a megabyte. One id is kept inline (the id's string,
/// itself inline up to 15 UTF-8 bytes), and a `Set` only from the second id on.
enum MatchIndexIDs: Sendable {
    case one(ActivityID)
    case many(Set<ActivityID>)

    /// Adds `id` to `ids` (nil: none yet).
    static func insert(_ id: ActivityID, into ids: inout MatchIndexIDs?) {
        switch ids {
        case nil:
            ids = .one(id)
        case .one(let first):
            if first != id { ids = .many([first, id]) }
        case .many(var set):
            ids = nil  // drops the second reference, so that the insert does not copy the set
            set.insert(id)
            ids = .many(set)
        }
    }

    /// Removes `id` from `ids`; nil when none is left.
    static func remove(_ id: ActivityID, from ids: inout MatchIndexIDs?) {
        switch ids {
        case nil:
            break
        case .one(let only):
            if only == id { ids = nil }
        case .many(var set):
            ids = nil  // as in `insert`
            set.remove(id)
            if set.count == 1, let only = set.first {
                ids = .one(only)
            } else if !set.isEmpty {
                ids = .many(set)
            }
        }
    }

    /// Adds every id to `result`.
    func add(to result: inout Set<ActivityID>) {
        switch self {
        case .one(let id): result.insert(id)
        case .many(let set): result.formUnion(set)
        }
    }
}
