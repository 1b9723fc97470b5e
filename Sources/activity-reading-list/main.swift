// activity-reading-list: the "Add to Reading List" provider, started by D-Bus activation.
// extensions/reading-list.json describes the activity to the broker; this process only serves
// it (no run-time registration), and only to the broker (ReadingListService).
import ActivityBrokerInterface
import DBus
import Foundation
import UIServiceSupport

let busName: BusName = "org.activitybroker.ReadingList"
let objectPath: ObjectPath = "/org/activitybroker/ReadingList"
let readingList = ReadingList(path: ReadingList.defaultPath())

@Sendable func log(_ message: String) {
    FileHandle.standardError.write(Data("activity-reading-list: \(message)\n".utf8))
}

let usage = "usage: activity-reading-list [--list | --idle-exit SECONDS]"
let arguments = Array(CommandLine.arguments.dropFirst())
/// Exit after this long without a call (D-Bus activation starts it again), as the UI services do.
var idleExit: Duration? = ServiceArguments.defaultIdleExit
if arguments == ["--version"] {
    print(ProjectVersion.line(program: "activity-reading-list"))
    exit(0)
}
if arguments == ["--list"] {
    do {
        let entries = try readingList.load { log("the list was unreadable; kept it as \($0)") }
        if entries.isEmpty { print("The reading list is empty.") }
        // Titles come from web pages: nothing in them may reach the terminal as a control.
        for entry in entries {
            print("\(ListingText.printable(entry.title ?? "(untitled)"))\n  \(ListingText.printable(entry.url))")
        }
        exit(0)
    } catch {
        log((error as? ReadingListError)?.dbusError.message ?? "cannot read \(readingList.path): \(error)")
        exit(1)
    }
} else if arguments.first == "--idle-exit", arguments.count == 2 {
    do {
        idleExit = try ServiceArguments.idleExit(arguments[1])
    } catch {
        log("\(error)\n\(usage)")
        exit(2)
    }
} else if !arguments.isEmpty {
    log(usage)
    exit(arguments == ["--help"] ? 0 : 2)
}

// Globals, not locals of the `do` below: a connection released at the end of that block closes
// itself, dropping the name and the provider while the process lingers.
let connection: Connection
let service: ReadingListService
// Exits when no call has come for `idleExit`, and only with none on its way in (`QuietExit`):
// each answered call starts the wait again.
let idle: IdleExit
do {
    connection = try Connection(bus: .session)
    let quietExit = QuietExit(connection: connection, log: log)
    idle = IdleExit(after: idleExit, onIdle: quietExit.exitIfIdle)
    let waitAgain: @MainActor () -> Void = { idle.schedule { quietExit.nothingInFlight } }
    service = ReadingListService(
        connection: connection, objectPath: objectPath, list: readingList, quietExit: quietExit, log: log
    ) {
        DispatchQueue.main.async { MainActor.assumeIsolated { waitAgain() } }
    }
    waitAgain()
    // Exit when the bus goes away; D-Bus activation starts a new instance when needed.
    connection.onDisconnect { exit(0) }
    try service.start()
    let reply = try await connection.requestName(busName, flags: [.doNotQueue])
    guard reply == .primaryOwner else {
        log("\(busName.rawValue) is already owned; another reading list provider runs")
        exit(1)
    }
} catch {
    log("\(error)")
    exit(1)
}
// Serve until idle or the bus goes away (the main queue runs the idle exit's timers meanwhile).
while true { try await Task.sleep(for: .seconds(3600)) }
