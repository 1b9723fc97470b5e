// Issue 14's targets for the lookup without the cache and for start at 10,000 manifests.

extension Report {
    /// (name, measured, limit, unit) of each target issue 14 adds: `ListActivities` with a
    /// distinct URL per call within 1.5× Ping p50 (the Pings timed alternating with it:
    /// `Report.ratio`) at 1,000 and 10,000, and start with 10,000 manifests to the name owned
    /// within 250 ms.
    func issue14Targets() -> [(String, Double?, Double, String)] {
        var targets: [(String, Double?, Double, String)] = []
        for size in [1000, 10_000] where sizes.contains(size) {
            for (name, count) in [("list15Distinct", 15), ("list60Distinct", 60)] {
                targets.append(("ListActivities (\(count)), distinct URLs, p50 at \(size) / Ping p50", ratio(size, name), 1.5, "×"))
            }
        }
        if sizes.contains(10_000) {
            let start = medians["10000"]?["start"].map { $0.p50Microseconds / 1000 }
            targets.append(("start with 10,000 manifests to name owned", start, 250, "ms"))
        }
        return targets
    }
}
