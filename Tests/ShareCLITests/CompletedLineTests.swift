// The line printed when an activity completed: one wording for the list, the picker, the sheet and browse.
import ActivityBrokerClient
import Testing

@testable import ShareCLI

@Suite struct CompletedLineTests {
    @Test func aShareIsSentAndAnActionDone() {
        #expect(CompletedLine.text(name: "Mail", category: "share") == "Sent with Mail")
        #expect(CompletedLine.text(name: "Copy Link", category: "action") == "Done: Copy Link")
        #expect(CompletedLine.text(name: "Gone", category: nil) == "Done: Gone")
    }

    @Test func theProviderResultsFollowSortedByKey() {
        let line = CompletedLine.text(
            name: "Add to Reading List", category: "action",
            results: ["unread": .boolean(true), "count": .integer(3)])
        #expect(line == "Done: Add to Reading List (count=3, unread=true)")
    }
}
