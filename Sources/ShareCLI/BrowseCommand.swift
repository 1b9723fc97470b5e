// `share browse URL`: an in-app browsing session in the terminal (issue 6).
import ActivityBrokerClient
import DBus

enum BrowseCommand {
    static func run(url: String, bus: BusAddress) async throws -> ShareExit {
        throw ShareFailure("'share browse' is not built yet", exit: .failed)
    }
}
