// example-provider: the smallest complete extension — an app offering "Save to Notes" for
// https pages, served from a closure. The README's "For extension authors" shows this file.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation

@main
struct ExampleProvider {
    static func main() async throws {
        if CommandLine.arguments.dropFirst().first == "--version" {
            print(ProjectVersion.line(program: "example-provider"))
            return
        }
        // The app's own connection to the session bus.
        let connection = try Connection(bus: .session)

        // One activity: shown in the action row for https pages on any host.
        let saveToNotes = ProvidedActivity(
            id: "org.example.Notes.save",
            name: "Save to Notes",
            names: ["de": "In Notizen sichern", "fr": "Enregistrer dans Notes"],
            icon: "accessories-text-editor",
            category: "action",
            schemes: ["https"]
        ) { request in
            // Runs when the user picks it; the URL reaches this app alone.
            let line = "\(request.items.title ?? request.items.url)\t\(request.items.url)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            return ActivityOutcome(state: .completed, results: ["saved": .boolean(true)])
        }

        // Serves org.activitybroker.Provider1, registers with the broker (starting it by
        // D-Bus activation if needed), and registers again whenever the broker restarts.
        let provider = ActivityProvider(connection: connection, objectPath: "/org/example/Notes")
        try await provider.start([saveToNotes])
        FileHandle.standardError.write(Data("registered org.example.Notes.save; Ctrl-C to stop\n".utf8))

        // The registration lives as long as this connection: closing it (or exiting) removes it.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
