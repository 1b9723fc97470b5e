// activity-browser: the browser window's UI service (org.activitybroker.Browser), started by D-Bus activation.
import ActivityBrokerInterface
import BrowserWindow
import Foundation

if CommandLine.arguments.dropFirst().first == "--version" {
    print(ProjectVersion.line(program: "activity-browser"))
    exit(0)
}

let arguments: BrowserArguments
do {
    arguments = try BrowserArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
        print(BrowserArguments.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("activity-browser: \(error)\n\(BrowserArguments.usage)\n".utf8))
    exit(2)
}
MainActor.assumeIsolated {
    BrowserApplication.run(arguments)
}
