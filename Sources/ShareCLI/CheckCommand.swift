// `share check FILE…`: manifest validation for authors, with line, column and field path.
import ActivityKit
import Foundation

/// Validates manifest files with the broker's own decoder (`ManifestCheck` over `Manifest.decode`),
/// so that what passes here is what the broker loads. Needs no broker.
enum CheckCommand {
    static func run(files: [String]) -> ShareExit {
        var failed = false
        var firstFileOfID: [String: String] = [:]
        for file in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                Output.line("\(file): error: cannot read the file: \(readError(error))")
                failed = true
                continue
            }
            let name = (file as NSString).lastPathComponent
            let result = ManifestCheck.check(Array(data), fileName: name)
            for diagnostic in result.diagnostics { Output.line(diagnostic.formatted(file: file)) }
            if result.isMask {
                Output.line("\(file): ok (empty: masks a file of the same name in a lower directory)")
            } else if let activity = result.activity {
                let id = activity.id.rawValue
                if let first = firstFileOfID[id] {
                    Output.line("\(file): warning: id '\(id)' is also defined by \(first)")
                } else {
                    firstFileOfID[id] = file
                }
                if !name.hasSuffix(".json") {
                    Output.line("\(file): warning: the broker reads only files named *.json")
                }
                Output.line("\(file): ok (\(id))")
            }
            failed = failed || result.hasErrors
        }
        return failed ? .usage : .completed
    }

    private static func readError(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
