// activity-browser: the browser window's UI service (org.activitybroker.Browser), started by D-Bus activation.
import BrowserWindow
import Foundation
import UIServiceSupport

switch ServiceCommandLine<BrowserArguments>.read(program: "activity-browser") {
case .run(let arguments): MainActor.assumeIsolated { BrowserApplication.run(arguments) }
case .exit(let status): exit(status)
}
