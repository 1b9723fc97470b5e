// One site's ranked offers (a URL's scheme and host, one locale), kept between calls, with the marshalled answers given from it.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// What `ListActivities` may offer on any page of one site, before the per-call steps: the
/// available activities whose scheme and host rules accept it, ranked, each with its path
/// prefixes, its target-URL check and its record for one locale (`OfferPipeline.rankedForSite`).
///
/// Why per site and not per URL: a browser's share button follows the user from page to page
/// of a site, each a new URL. Ranked once per site, a call only walks the entries (its path,
/// the caller's filter, the target URL's length), and the answer for the entries it kept is
/// marshalled once (`reply`) and sent again to every call that keeps the same ones, while
/// `OffersReplyCache`'s budget keeps it.
///
/// Loop-confined with `Offers`, which keeps and drops these.
final class OffersForSite {
    struct Key: Hashable {
        let scheme: String
        let host: String?
        let locale: String?
    }

    /// A class: the per-call walk reads each entry without copying its fields.
    final class Entry {
        let id: ActivityID
        let owner: String?
        let category: ActivityCategory
        let visibility: ActivityVisibility
        /// Its rule: the path prefixes are checked per URL.
        let match: ActivityKit.MatchRule
        /// Whether Perform would refuse the items (an `open` activity's URL that is not one);
        /// nil for the other kinds, which never refuse on the items.
        let target: TargetURLCheck?
        let record: Value

        init(
            id: ActivityID, owner: String?, category: ActivityCategory, visibility: ActivityVisibility,
            match: ActivityKit.MatchRule, target: TargetURLCheck?, record: Value
        ) {
            self.id = id
            self.owner = owner
            self.category = category
            self.visibility = visibility
            self.match = match
            self.target = target
            self.record = record
        }
    }

    /// The usage scores the ranking was computed with, and each entry's usage then: a use of an
    /// activity that is not among them leaves the order as it is (`isCurrent`).
    private(set) var scores: UsageScores
    private let usage: [UsageEntry?]
    let entries: [Entry]
    /// The entries that stand for the scheme's default application (`default_handler_alias`).
    let aliases: Set<ActivityID>
    /// This ranking among every one `Offers` made: its replies' key in `OffersReplyCache`.
    let serial: UInt64

    init(serial: UInt64, ranked: [Activity], scores: UsageScores, entry: (Activity) -> Entry) {
        self.serial = serial
        self.scores = scores
        usage = ranked.map { scores.entries[$0.id.rawValue] }
        entries = ranked.map(entry)
        aliases = Set(ranked.lazy.filter(\.defaultHandlerAlias).map(\.id))
    }

    /// Whether the ranking still holds under `current` scores: the same scores, or none of the
    /// entries' usage changed (scores decay at one rate, so time alone keeps the order). Takes
    /// `current` as its own so that the next call compares storage identity only.
    func isCurrent(with current: UsageScores) -> Bool {
        if current == scores { return true }
        for index in entries.indices where current.entries[entries[index].id.rawValue] != usage[index] { return false }
        scores = current
        return true
    }

    /// The indices of the entries offered for `items` to a call with `filter`, in order: the
    /// URL's path matches, the filter keeps it, Perform would not refuse the items (the same
    /// check, so an activity is offered exactly when performing it would be accepted), then the
    /// default-handler aliasing for the URL's scheme.
    func offered(for items: Items, filter: OfferFilter, schemeDefault: SchemeDefault?) -> [Int] {
        var lengths: TargetURLCheck.Lengths?
        var kept: [Int] = []
        kept.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated()
        where entry.match.pathMatches(items.url.path)
            && filter.keeps(id: entry.id, owner: entry.owner, category: entry.category, visibility: entry.visibility)
            && entry.target?.accepts(items, lengths: &lengths) != false
        {
            kept.append(index)
        }
        return DefaultHandlerAliasing.fold(kept, id: { entries[$0].id }, aliases: aliases, schemeDefault: schemeDefault)
    }

    /// The `aa{sv}` reply of the entries at `kept` (indices into `entries`), kept in `cache`
    /// once marshalled. Throws `Failed` (as for any reply that cannot be encoded) if a record
    /// holds something D-Bus cannot carry.
    func reply(for kept: [Int], in cache: OffersReplyCache) throws(DBusError) -> EncodedReply {
        try cache.reply(for: OffersReplyCache.Key(site: serial, kept: kept)) { () throws(DBusError) in
            do throws(DBusError) {
                return try EncodedReply([.array(element: "a{sv}", kept.map { entries[$0].record })])
            } catch {
                throw .failed("ListActivities reply could not be encoded: \(error.message)")
            }
        }
    }
}
