// The offer pipeline's pure steps: match → availability → ranking, exclusions and own activities, the default-browser alias.
import Foundation
import Testing

@testable import ActivityKit

@Suite struct OfferPipelineTests {
    let now = Timestamp(secondsSince1970: 1_800_000_000)

    /// An activity that needs the program `program` (exec), or nothing (open) when nil.
    func needing(_ program: String?, _ ident: String, category: ActivityCategory = .share) -> Activity {
        var a = activity(ident, category: category)
        if let program {
            a.perform = .exec(try! ExecSpec(argv: [try! Template(program), try! Template("{url}")], stdin: nil))
        }
        return a
    }

    func registry(_ activities: [Activity]) -> Registry {
        var registry = Registry()
        registry.setStaticLayers([
            StaticLayer(
                origin: .builtin,
                entries: Dictionary(uniqueKeysWithValues: activities.map { ("\($0.id).json", .activity($0)) }))
        ])
        return registry
    }

    @Test func rankedKeepsOnlyMatchingAvailableActivitiesInPresentationOrder() {
        let registry = registry([
            activity("b.share", category: .share),
            activity("a.action", category: .action),
            activity("c.other-host", hosts: ["other.example"]),
            needing("missing-tool", "d.unavailable"),
        ])
        let env = FixedEnvironment()
        let ranked = OfferPipeline.ranked(
            in: registry, for: url("https://example.org/"), isAvailable: { $0.availability(in: env).isAvailable },
            usage: UsageScores(), now: now, locale: nil)
        #expect(ranked.map(\.id.rawValue) == ["b.share", "a.action"])
    }

    @Test func rankedPutsTheMoreUsedFirstWithinACategory() {
        let registry = registry([activity("a.one"), activity("b.two")])
        var usage = UsageScores()
        usage.recordUse(of: id("b.two"), at: now)
        let ranked = OfferPipeline.ranked(
            in: registry, for: url("https://example.org/"), isAvailable: { _ in true }, usage: usage, now: now,
            locale: nil)
        #expect(ranked.map(\.id.rawValue) == ["b.two", "a.one"])
    }

    @Test func aSiteRankedOnceAndFilteredByPathIsWhatEachOfItsURLsRanks() {
        let registry = registry([
            activity("a.any", priority: 1),
            activity("b.news", hosts: ["*.example.org"], paths: ["/news/"]),
            activity("c.watch", category: .action, hosts: ["www.example.org"], paths: ["/watch", "/v/"]),
            activity("d.org", name: "Zed", hosts: ["example.org", "www.example.org"]),
            activity("e.other", hosts: ["other.example"]),
            activity("f.mail", schemes: ["mailto"]),
        ])
        var usage = UsageScores()
        usage.recordUse(of: id("d.org"), at: now)
        let urls = [
            "https://www.example.org/news/2026/a.html", "https://www.example.org/watch", "https://www.example.org/watchlist",
            "https://www.example.org/v/1", "http://example.org/", "https://other.example/news/", "mailto:x@example.org",
        ]
        for text in urls {
            let url = url(text)
            let site = OfferPipeline.rankedForSite(
                in: registry, scheme: url.scheme, host: url.host, isAvailable: { _ in true }, usage: usage, now: now,
                locale: nil)
            let page = OfferPipeline.ranked(
                in: registry, for: url, isAvailable: { _ in true }, usage: usage, now: now, locale: nil)
            #expect(site.filter { $0.match.pathMatches(url.path) }.map(\.id) == page.map(\.id), "\(text)")
        }
    }

    @Test func exclusionsTakeIdsAndCategories() throws {
        let exclusions = try Exclusions(["x.one", "category:action"])
        #expect(exclusions.excludes(id: id("x.one"), category: .share))
        #expect(exclusions.excludes(id: id("y.two"), category: .action))
        #expect(!exclusions.excludes(id: id("y.two"), category: .share))
    }

    @Test func anUnknownCategoryIsAnInvalidArgument() {
        let error = caught { try Exclusions(["category:nonsense"]) }
        guard case .invalidArgument(let message) = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(message.contains("category:nonsense"))
    }

    @Test func theFilterLeavesOutTheCallersOwnUnlessAsked() throws {
        let filter = try OfferFilter(exclude: [], caller: ":1.7", includeOwn: false)
        #expect(!filter.keeps(id: id("own"), owner: ":1.7", category: .share))
        #expect(filter.keeps(id: id("theirs"), owner: ":1.8", category: .share))
        #expect(filter.keeps(id: id("static"), owner: nil, category: .share))
        let asking = try OfferFilter(exclude: [], caller: ":1.7", includeOwn: true)
        #expect(asking.keeps(id: id("own"), owner: ":1.7", category: .share))
        let excluding = try OfferFilter(exclude: ["theirs"], caller: ":1.7", includeOwn: true)
        #expect(!excluding.keeps(id: id("theirs"), owner: ":1.8", category: .share))
    }
}

@Suite struct AvailabilityCacheTests {
    /// An environment whose programs can change between calls, counting the lookups.
    final class ChangingEnvironment: Environment, @unchecked Sendable {
        var executables: Set<String> = []
        var lookups = 0
        func hasExecutable(_ name: String) -> Bool {
            lookups += 1
            return executables.contains(name)
        }
        func hasBusName(_ name: String) -> Bool { false }
        func hasVariable(_ name: String) -> Bool { false }
    }

    let tool: Activity = {
        var a = activity("needs.tool")
        a.perform = .exec(try! ExecSpec(argv: [try! Template("tool")], stdin: nil))
        return a
    }()

    func registry() -> Registry {
        var registry = Registry()
        registry.setStaticLayers([StaticLayer(origin: .builtin, entries: ["tool.json": .activity(tool)])])
        return registry
    }

    @Test func answersAreRememberedUntilEmptied() {
        let env = ChangingEnvironment()
        var cache = AvailabilityCache()
        let first = cache.availability(of: tool, in: env)
        env.executables = ["tool"]
        let remembered = cache.availability(of: tool, in: env)
        #expect(!first.isAvailable && !remembered.isAvailable)
        #expect(env.lookups == 1)
        cache.removeAll()
        let fresh = cache.availability(of: tool, in: env)
        #expect(fresh.isAvailable)
    }

    @Test func aMachineChangeReportsOnlyAFlip() {
        let env = ChangingEnvironment()
        var cache = AvailabilityCache()
        _ = cache.availability(of: tool, in: env)
        let unchanged = cache.machineChanged(registry(), in: env)
        #expect(!unchanged, "nothing changed for the remembered activity")
        env.executables = ["tool"]
        let appeared = cache.machineChanged(registry(), in: env)
        #expect(appeared, "the tool appeared")
        let now = cache.availability(of: tool, in: env)
        #expect(now.isAvailable)
    }

    @Test func aMachineChangeWithNothingRememberedIsNoFlip() {
        var cache = AvailabilityCache()
        let env = ChangingEnvironment()
        env.executables = ["tool"]
        let flipped = cache.machineChanged(registry(), in: env)
        #expect(!flipped)
    }
}
