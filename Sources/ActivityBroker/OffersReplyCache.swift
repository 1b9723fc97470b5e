// The marshalled ListActivities replies kept for every site together, within one byte budget.
import DBus

/// The `aa{sv}` answers `ListActivities` sends again as they are, by the site ranking they came
/// from and the entries they hold, least recently used dropped first.
///
/// Why one budget for all sites: the entries a call keeps depend on what the caller sends
/// (`exclude`, the URL's path, its length), so a caller can make a new answer per call on any
/// number of sites. Counted per site, that is sites × answers × records; counted here, the
/// replies never hold more than `budget` bytes (their marshalled size), however they are asked
/// for. A reply larger than the whole budget is sent but not kept.
///
/// Loop-confined with `Offers`, which owns it.
final class OffersReplyCache {
    /// A reply's identity: the ranking it indexes into (`OffersForSite.serial`, new for each
    /// ranking, so the replies of a dropped ranking are never found again and age out) and
    /// the indices of the entries it holds.
    struct Key: Hashable {
        let site: UInt64
        let kept: [Int]
    }

    private struct Kept {
        let reply: EncodedReply
        let bytes: Int
        var lastUse: UInt64
    }

    /// 4 MiB: thousands of the usual 15-record answers.
    static let defaultBudget = 4 << 20

    let budget: Int
    /// The marshalled bytes of the replies kept: never over `budget`.
    private(set) var bytes = 0
    private var replies: [Key: Kept] = [:]
    /// Counts uses: the order replies were last sent in.
    private var uses: UInt64 = 0

    init(budget: Int = OffersReplyCache.defaultBudget) {
        precondition(budget > 0, "a reply budget is a positive number of bytes")
        self.budget = budget
    }

    /// The replies kept.
    var count: Int { replies.count }

    /// The reply kept for `key`, or the one `encode` makes, kept if it fits the budget once the
    /// least recently used replies are dropped.
    func reply(for key: Key, encode: () throws(DBusError) -> EncodedReply) throws(DBusError) -> EncodedReply {
        uses &+= 1
        if let index = replies.index(forKey: key) {
            replies.values[index].lastUse = uses
            return replies.values[index].reply
        }
        let reply = try encode()
        let size = reply.wireLength
        guard size <= budget else { return reply }
        if bytes + size > budget { evict(toFit: size) }
        replies[key] = Kept(reply: reply, bytes: size, lastUse: uses)
        bytes += size
        return reply
    }

    /// Drops every reply (the registry, the machine or the usage changed).
    func removeAll() {
        replies.removeAll()
        bytes = 0
    }

    /// Drops the least recently used replies until `size` more bytes fit with a quarter of the
    /// budget to spare, so that a run of new answers sorts the replies once per quarter budget
    /// rather than once per answer.
    private func evict(toFit size: Int) {
        let target = max(0, budget - budget / 4 - size)
        for (key, kept) in replies.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            if bytes <= target { break }
            replies[key] = nil
            bytes -= kept.bytes
        }
    }
}
