// AttributionStoreFormat: attribution.json and the `share attributions --json` listing — sites, ids and days only.

/// The text forms of an `AttributionStore`.
///
/// The listing (API.md §11) is an array of objects: `kind` `click` or `report`,
/// `source_site`, `destination_site`, `source_id`, then `expires` (clicks) or `trigger_data`,
/// `priority`, `send_after` (reports). The store file is `{"version":1,"attributions":[…]}`
/// with the same objects, reports also carrying `trigger_day`, `attempts` and `answered` (the
/// endpoints that have the report: `source`, `destination`). Dates are days (`YYYY-MM-DD`),
/// nothing finer: a report's exact send time is not written down. Read back, a report keeps
/// the day it was due on (`sendAfter` at that day's start, for the listing); the broker then
/// moves it to `AttributionReport.restartSendTime` (`AttributionStore.resumeAfterRestart`),
/// which its `trigger_day` bounds. A file without `trigger_day` (written before it existed)
/// counts the trigger a day before `send_after`. Output is deterministic.
public enum AttributionStoreFormat {
    public static let version = 1
    /// The store file's path under `$XDG_STATE_HOME` (the broker writes it, `share attributions` reads it).
    public static let pathInStateHome = "/activity-broker/attribution.json"
    /// A larger file is not read (the caps keep a real one near 200 KiB).
    public static let maximumFileSize = 1 << 20

    /// The store file's content.
    public static func file(_ store: AttributionStore) -> [UInt8] {
        Array(("{\"version\":\(version),\"attributions\":" + array(store, file: true) + "}\n").utf8)
    }

    /// The `share attributions --json` array.
    public static func listing(_ store: AttributionStore) -> String { array(store, file: false) }

    /// Reads a store file; nil when it is not one (the caller starts empty and logs it).
    public static func store(fromFile data: [UInt8]) -> AttributionStore? {
        guard data.count <= maximumFileSize, case .object(let top)? = JSONValue.parse(data),
            top["version"] == .int(version), case .array(let entries)? = top["attributions"]
        else { return nil }
        var clicks: [AttributionClick] = []
        var reports: [AttributionReport] = []
        for entry in entries {
            guard case .object(let fields) = entry, let source = site(fields["source_site"]),
                let destination = site(fields["destination_site"]),
                let sourceID = integer(fields["source_id"], max: 255)
            else { return nil }
            // Kept before sites came from the Public Suffix List: a site that is a listed suffix
            // (`github.io` for a click on `alice.github.io`) was never one and would send its
            // report to the suffix's host. Forgotten, the rest kept.
            if let list = PublicSuffixList.system, list.isListedSuffix(source) || list.isListedSuffix(destination) {
                continue
            }
            switch fields["kind"] {
            case .string("click"):
                guard let expires = day(fields["expires"]) else { return nil }
                clicks.append(
                    AttributionClick(
                        pair: AttributionSitePair(source: source, destination: destination),
                        sourceID: UInt8(sourceID), expires: expires))
            case .string("report"):
                guard
                    let data = integer(
                        fields["trigger_data"], max: Int(AttributionTrigger.maximumTriggerData)),
                    let priority = integer(fields["priority"], max: Int(AttributionTrigger.maximumPriority)),
                    let attempts = integer(fields["attempts"], max: AttributionReport.maximumAttempts - 1),
                    let sendDay = day(fields["send_after"]),
                    let answered = endpoints(fields["answered"])
                else { return nil }
                let read =
                    fields["trigger_day"] == nil ? sendDay.adding(days: -1) : day(fields["trigger_day"])
                guard let triggerDay = read else { return nil }
                reports.append(
                    AttributionReport(
                        sourceSite: source, destinationSite: destination, sourceID: UInt8(sourceID),
                        triggerData: UInt8(data), priority: UInt8(priority), triggerDay: triggerDay,
                        sendAfter: sendDay.start, attempts: attempts, answered: answered))
            default: return nil
            }
        }
        return AttributionStore(clicks: clicks, reports: reports)
    }

    private static func array(_ store: AttributionStore, file: Bool) -> String {
        var objects: [String] = []
        for click in store.clicks {
            objects.append(
                "{\"kind\":\"click\"," + sites(click.sourceSite, click.destinationSite, click.sourceID)
                    + ",\"expires\":\"\(click.expires)\"}")
        }
        for report in store.reports {
            var object = "{\"kind\":\"report\","
            object += sites(report.sourceSite, report.destinationSite, report.sourceID)
            object += ",\"trigger_data\":\(report.triggerData),\"priority\":\(report.priority)"
            object += ",\"send_after\":\"\(AttributionDay(containing: report.sendAfter))\""
            if file {
                let answered =
                    report.answered.isEmpty
                    ? ""
                    : "\""
                        + AttributionReport.Endpoint.allCases
                        .filter(report.answered.contains).map(\.rawValue).joined(separator: "\",\"") + "\""
                object += ",\"trigger_day\":\"\(report.triggerDay)\",\"attempts\":\(report.attempts)"
                object += ",\"answered\":[\(answered)]"
            }
            objects.append(object + "}")
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    private static func sites(_ source: String, _ destination: String, _ id: UInt8) -> String {
        "\"source_site\":\(JSONText.quoted(source)),\"destination_site\":\(JSONText.quoted(destination)),\"source_id\":\(id)"
    }

    /// A `YYYY-MM-DD` string.
    private static func day(_ value: JSONValue?) -> AttributionDay? {
        guard case .string(let text)? = value else { return nil }
        return AttributionDay(parsing: text)
    }

    /// The `answered` array: endpoint names, each once, never all (that report is gone); absent
    /// (an older file) is none.
    private static func endpoints(_ value: JSONValue?) -> Set<AttributionReport.Endpoint>? {
        guard let value else { return [] }
        guard case .array(let names) = value, names.count < AttributionReport.Endpoint.allCases.count else {
            return nil
        }
        var endpoints: Set<AttributionReport.Endpoint> = []
        for name in names {
            guard case .string(let text) = name, let endpoint = AttributionReport.Endpoint(rawValue: text),
                endpoints.insert(endpoint).inserted
            else { return nil }
        }
        return endpoints
    }

    private static func integer(_ value: JSONValue?, max: Int) -> Int? {
        guard case .int(let number)? = value, (0...max).contains(number) else { return nil }
        return number
    }

    /// A site as `RegistrableDomain` gives it: a host name or IP literal, nothing that could be a path.
    private static func site(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value, RegistrableDomain.isSite(text) else { return nil }
        return text
    }
}
