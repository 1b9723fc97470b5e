// The client library from another package: every type it needs is importable (docs/client-library.md).
import ActivityBrokerClient
import DBus
import Foundation

// Asks the broker what it offers for a URL; with `--serve`, also offers "Save to Notes".
let connection = try Connection(bus: .session)
let broker = BrokerProxy(connection: connection, address: BrokerProxy.describe(.session))
if CommandLine.arguments.contains("--serve") {
    let provider = ActivityProvider(connection: connection, objectPath: "/org/example/Notes")
    try await provider.start([
        ProvidedActivity(
            id: "org.example.Notes.save", name: "Save to Notes", category: "action", schemes: ["https"]
        ) {
            request in
            print("\(request.items.title ?? request.items.url)\t\(request.items.url)")
            return ActivityOutcome(state: .completed, results: ["saved": .boolean(true)])
        }
    ])
}
for activity in try await broker.activities(for: SharedItems(url: "https://example.org/")) {
    print(activity.id, activity.name)
}
