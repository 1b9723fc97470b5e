// Registry: every known activity: static layers with masking, dynamic entries with owners, indexed lookup.

/// The set of activities. Owned by the service's event loop (a value type, no locks).
///
/// Static activities come from layers in precedence order (user, system…, builtin; the FIRST layer
/// wins). A file name in a higher layer masks the same name lower; a `.masked` entry hides and adds
/// nothing. When two different files define the same id, the one from the higher-precedence layer wins
/// (within one layer the file name that sorts first); the loser is reported in `conflicts`.
///
/// Dynamic activities belong to an owner (a unique bus name). A static id cannot be registered
/// (`alreadyExists`). If a manifest appears later with the id of a live registration, the
/// registration keeps the id until it goes away, then the manifest's activity shows.
public struct Registry: Sendable {
    /// At most this many dynamic activities per owner (API.md §3, `LimitExceeded`).
    public static let maxActivitiesPerOwner = 256

    private var staticByID = ActivityTable()
    private var dynamicByID: [ActivityID: Activity] = [:]
    private var idsByOwner: [String: Set<ActivityID>] = [:]
    private var index = MatchIndex()
    /// How many dynamic ids are also static ids (a manifest that appeared under a live
    /// registration), so that `count` is O(1): it is read on every `ActivitiesChanged`.
    private var shadowedStaticCount = 0

    /// One line per manifest ignored because a higher-precedence file defines the same id.
    public private(set) var conflicts: [String] = []

    /// An empty registry.
    public init() {}

    /// Replaces the static set and rebuilds the index.
    public mutating func setStaticLayers(_ layers: [StaticLayer]) {
        let entries = layers.reduce(0) { $0 + $1.entries.count }
        var seenFiles = Set<String>(minimumCapacity: entries)
        var byID: [ActivityID: Activity] = [:]
        byID.reserveCapacity(entries)
        // The file that defined each id; its layer is the activity's origin. A name, not a
        // line per file: only a conflict needs the line.
        var fileOf: [ActivityID: String] = [:]
        fileOf.reserveCapacity(entries)
        var conflicts: [String] = []
        for layer in layers {
            for fileName in layer.entries.keys.sorted() where seenFiles.insert(fileName).inserted {
                guard case .activity(var a) = layer.entries[fileName]! else { continue }
                // Only when they differ: a write copies the activity's shared record.
                if a.origin != layer.origin { a.origin = layer.origin }
                if a.owner != nil { a.owner = nil }
                if let holder = fileOf[a.id], let held = byID[a.id] {
                    conflicts.append(
                        "\(fileName) (\(layer.origin.rawValue)): id '\(a.id)' is already defined by \(holder) (\(held.origin.rawValue)); ignored"
                    )
                    continue
                }
                byID[a.id] = a
                fileOf[a.id] = fileName
            }
        }
        staticByID = ActivityTable(byID)
        self.conflicts = conflicts
        shadowedStaticCount = dynamicByID.keys.reduce(0) { $0 + (byID[$1] == nil ? 0 : 1) }
        rebuildIndex()
    }

    private mutating func rebuildIndex() {
        var entries: [(ActivityID, MatchRule)] = []
        entries.reserveCapacity(staticByID.count + dynamicByID.count)
        for a in staticByID.activities where dynamicByID[a.id] == nil { entries.append((a.id, a.match)) }
        for (id, a) in dynamicByID { entries.append((id, a.match)) }
        index = MatchIndex(entries)
    }

    /// Registers (or replaces) a dynamic activity of `owner`; its `owner` and origin `.dbus` are set here.
    /// - Throws: `.alreadyExists` when a manifest or another owner holds the id; `.limitExceeded` when
    ///   `owner` already has `maxActivitiesPerOwner` other activities.
    public mutating func register(_ activity: Activity, owner: String) throws(ActivityError) {
        let id = activity.id
        if let existing = dynamicByID[id] {
            if existing.owner != owner {
                throw .alreadyExists("activity '\(id)' is already registered by another connection")
            }
        } else {
            if staticByID[id] != nil {
                throw .alreadyExists("activity '\(id)' is already defined by a manifest")
            }
            if idsByOwner[owner, default: []].count >= Registry.maxActivitiesPerOwner {
                throw .limitExceeded(
                    "a connection may register at most \(Registry.maxActivitiesPerOwner) activities")
            }
        }
        var a = activity
        a.owner = owner
        a.origin = .dbus
        if let old = dynamicByID[id] {
            index.remove(id, old.match)
        }
        dynamicByID[id] = a
        index.insert(id, a.match)
        idsByOwner[owner, default: []].insert(id)
    }

    /// Removes a dynamic activity.
    /// - Throws: `.notFound` for an unknown id; `.accessDenied` when `caller` does not own it or it is static.
    public mutating func unregister(_ id: ActivityID, caller: String) throws(ActivityError) {
        guard let a = dynamicByID[id] else {
            if staticByID[id] != nil {
                throw .accessDenied("activity '\(id)' comes from a manifest and cannot be unregistered")
            }
            throw .notFound("no activity '\(id)' is registered")
        }
        guard a.owner == caller else {
            throw .accessDenied("activity '\(id)' was registered by another connection")
        }
        removeDynamic(id)
    }

    /// Removes every activity of `owner` (its connection closed); returns their ids, sorted.
    @discardableResult
    public mutating func removeAll(ownedBy owner: String) -> [ActivityID] {
        guard let ids = idsByOwner[owner] else { return [] }
        let sorted = ids.sorted()
        for id in sorted { removeDynamic(id) }
        return sorted
    }

    private mutating func removeDynamic(_ id: ActivityID) {
        guard let a = dynamicByID.removeValue(forKey: id) else { return }
        index.remove(id, a.match)
        if let owner = a.owner {
            idsByOwner[owner]?.remove(id)
            if idsByOwner[owner]?.isEmpty == true { idsByOwner[owner] = nil }
        }
        if let s = staticByID[id] {
            index.insert(id, s.match)
            shadowedStaticCount -= 1
        }
    }

    /// The activity with `id`, if any.
    public func activity(_ id: ActivityID) -> Activity? {
        dynamicByID[id] ?? staticByID[id]
    }

    /// Every activity, sorted by id.
    public var all: [Activity] {
        var merged = dynamicByID
        for a in staticByID.activities where merged[a.id] == nil { merged[a.id] = a }
        return merged.values.sorted { $0.id < $1.id }
    }

    /// How many activities there are.
    public var count: Int {
        staticByID.count + dynamicByID.count - shadowedStaticCount
    }

    /// How many dynamic activities `owner` has.
    public func count(ownedBy owner: String) -> Int { idsByOwner[owner]?.count ?? 0 }

    /// Activities whose match rules accept `url`, sorted by id; found through the index.
    public func matching(_ url: SharedURL) -> [Activity] {
        // Ids are sorted rather than activities: moving large structs around is what a sort costs.
        var ids: [ActivityID] = []
        for id in index.candidates(for: url) {
            if let a = dynamicByID[id] ?? staticByID[id], a.match.matches(url) { ids.append(id) }
        }
        ids.sort()
        return ids.map { dynamicByID[$0] ?? staticByID[$0]! }
    }

    /// Activities whose schemes and host globs accept a URL with `scheme` and `host`, whatever
    /// its path (`MatchRule.pathMatches` decides that per URL), sorted by id: what every page
    /// of one site may be offered, so that the broker ranks a site once, not each page.
    public func matching(scheme: String, host: String?) -> [Activity] {
        var ids: [ActivityID] = []
        for id in index.candidates(scheme: scheme, host: host) {
            if let a = dynamicByID[id] ?? staticByID[id], a.match.matches(scheme: scheme, host: host) {
                ids.append(id)
            }
        }
        ids.sort()
        return ids.map { dynamicByID[$0] ?? staticByID[$0]! }
    }

    /// How many activities the index offers for `url` before path prefixes are checked (for tests).
    func candidateCount(for url: SharedURL) -> Int {
        index.candidates(for: url).count
    }
}
