// The share command (API.md §8): all behaviour lives in ShareCLI; this only runs it.
import Foundation
import ShareCLI

exit(await ShareCommand.main(Array(CommandLine.arguments.dropFirst())))
