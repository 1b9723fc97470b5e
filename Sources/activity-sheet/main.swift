// activity-sheet: the share sheet's UI service (org.activitybroker.Sheet), started by D-Bus activation.
import Foundation
import ShareSheet
import UIServiceSupport

switch ServiceCommandLine<SheetArguments>.read(program: "activity-sheet") {
case .run(let arguments): MainActor.assumeIsolated { SheetApplication.run(arguments) }
case .exit(let status): exit(status)
}
