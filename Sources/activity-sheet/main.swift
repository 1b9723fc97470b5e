// activity-sheet: the share sheet's UI service (org.activitybroker.Sheet), started by D-Bus activation.
import ActivityBrokerInterface
import Foundation
import ShareSheet

if CommandLine.arguments.dropFirst().first == "--version" {
    print(ProjectVersion.line(program: "activity-sheet"))
    exit(0)
}

let arguments: SheetArguments
do {
    arguments = try SheetArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
        print(SheetArguments.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("activity-sheet: \(error)\n\(SheetArguments.usage)\n".utf8))
    exit(2)
}
MainActor.assumeIsolated {
    SheetApplication.run(arguments)
}
