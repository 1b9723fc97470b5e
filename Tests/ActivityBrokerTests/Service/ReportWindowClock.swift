// The fake clock of the report timing tests: a trigger just before midnight UTC, a restart just before its report is due.
import Foundation
import TestSupport
import Testing

/// A broker clock (`--clock-offset`) that reads two minutes before a midnight UTC, so that a
/// trigger made now falls at the very end of its day; then a restart just before the report
/// is due, and the check that it arrived inside 24–48 h of the trigger.
///
/// Why the end of a day: a report drawn 24–48 h after such a trigger is due on the second day
/// after it. A broker that kept only that day across a restart and sent at its end, as this
/// one once did, sent it nearly a day past its 48 h; a report must arrive at 00:00 of that
/// second day instead (`AttributionReport.restartSendTime`).
struct ReportWindowClock {
    static let day = 86_400
    /// Seconds added to the real clock for the broker that sees the trigger.
    let offset: Int

    static var realNow: Int { Int(Date().timeIntervalSince1970) }

    init() {
        let now = Self.realNow
        offset = (now / Self.day + 1) * Self.day - 120 - now
    }

    /// A browsing broker (`AttributionTests.start`: a proof is never late) on this clock, and a
    /// report server for both sites.
    func start() async throws -> (BrokerFixture, AttributionReportServer) {
        let f = try await AttributionTests.start(arguments: ["--clock-offset", String(offset)])
        let server = try await AttributionReportServer(
            directory: f.root + "/https", sites: AttributionReportTests.sites)
        return (f, server)
    }

    /// What the first broker's clock reads before and after `trigger` ran: when the trigger was.
    func bracket(_ trigger: () async throws -> Void) async throws -> ClosedRange<Int> {
        let before = Self.realNow + offset
        try await trigger()
        let after = Self.realNow + offset + 1
        try #require(before / Self.day == (after - 1) / Self.day, "the trigger stayed in its day")
        return before...after
    }

    /// Stops the broker, starts one whose clock reads 10 s before the report is due, and checks
    /// that `AttributionReportTests.expectedBody` reached each of `AttributionReportTests.sites`
    /// once, 24–48 h after `triggered`, and that the report is then forgotten.
    static func restartAndExpectReport(
        _ f: BrokerFixture, _ server: AttributionReportServer, triggered: ClosedRange<Int>
    ) async throws {
        _ = try await f.stopBroker()
        let due = (triggered.lowerBound / day + 2) * day
        let offset = due - 10 - realNow
        try await f.startBroker(
            arguments: ["--clock-offset", String(offset)]
                + server.brokerArguments(for: AttributionReportTests.sites))
        try await waitUntil("both reports received and the report forgotten", deadline: .seconds(60)) {
            server.requests.count >= 2 && !AttributionTests.stored(f).contains(#""kind":"report""#)
        }
        try await f.settle()
        let requests = server.requests
        #expect(requests.count == 2, "sent once to each: \(requests)")
        #expect(Set(requests.compactMap { $0["host"] as? String }) == Set(AttributionReportTests.sites))
        #expect(
            requests.allSatisfy { $0["body"] as? String == AttributionReportTests.expectedBody },
            "\(requests)")
        for request in requests {
            let arrived = (request["time"] as? Double ?? 0) + Double(offset)
            #expect(
                arrived >= Double(triggered.upperBound + day)
                    && arrived <= Double(triggered.lowerBound + 2 * day),
                "arrived \(arrived - Double(triggered.lowerBound)) s after the trigger")
            #expect(arrived >= Double(due), "not before the instant the restart set")
        }
    }
}
