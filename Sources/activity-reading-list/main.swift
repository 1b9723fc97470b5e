// activity-reading-list: the "Add to Reading List" provider, started by D-Bus activation.
// The worked example for extension authors: an ActivityProvider serving one activity.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation

let busName: BusName = "org.activitybroker.ReadingList"
let objectPath: ObjectPath = "/org/activitybroker/ReadingList"
let readingList = ReadingList(path: ReadingList.defaultPath())
/// Handlers run concurrently; each read-modify-write of the file must not interleave with another.
let readingListLock = NSLock()

func log(_ message: String) {
    FileHandle.standardError.write(Data("activity-reading-list: \(message)\n".utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
    print(ProjectVersion.line(program: "activity-reading-list"))
    exit(0)
}
if arguments == ["--list"] {
    do {
        let entries = try readingList.load { log("the list was unreadable; kept it as \($0)") }
        if entries.isEmpty { print("The reading list is empty.") }
        for entry in entries { print("\(entry.title ?? "(untitled)")\n  \(entry.url)") }
        exit(0)
    } catch {
        log("cannot read \(readingList.path): \(error)")
        exit(1)
    }
} else if !arguments.isEmpty {
    log("usage: activity-reading-list [--list]")
    exit(arguments == ["--help"] ? 0 : 2)
}

/// The activity this provider serves; the manifest extensions/reading-list.json describes it
/// to the broker, so the provider only serves it (no run-time registration).
let addToReadingList = ProvidedActivity(
    id: "org.activitybroker.reading-list", name: "Add to Reading List",
    names: [
        "de": "Zur Leseliste hinzufügen", "fr": "Ajouter à la liste de lecture",
        "es": "Añadir a la lista de lectura", "ja": "リーディングリストに追加",
    ],
    icon: "bookmark-new", category: "action", schemes: ["http", "https"]
) { request in
    let count = try readingListLock.withLock {
        try readingList.add(url: request.items.url, title: request.items.title) {
            log("the list was unreadable; kept it as \($0)")
        }
    }
    return ActivityOutcome(state: .completed, results: ["count": .integer(Int64(count))])
}

// Globals, not locals of the `do` below: a connection released at the end of that block closes
// itself, dropping the name and the provider while the process lingers.
let connection: Connection
let provider: ActivityProvider
do {
    connection = try Connection(bus: .session)
    provider = ActivityProvider(connection: connection, objectPath: objectPath)
    // Exit when the bus goes away; D-Bus activation starts a new instance when needed.
    connection.onDisconnect { exit(0) }
    try await provider.start([addToReadingList], register: false)
    let reply = try await connection.requestName(busName, flags: [.doNotQueue])
    guard reply == .primaryOwner else {
        log("\(busName.rawValue) is already owned; another reading list provider runs")
        exit(1)
    }
} catch {
    log("\(error)")
    exit(1)
}
// Serve until the bus goes away.
while true { try await Task.sleep(for: .seconds(3600)) }
