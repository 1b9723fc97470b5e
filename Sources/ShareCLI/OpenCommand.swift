// `share open URL`: routes a URL to an in-app session or to the system opener (issue 6).
import ActivityBrokerClient
import DBus

enum OpenCommand {
    static func run(url: String, json: Bool, bus: BusAddress) async throws -> ShareExit {
        throw ShareFailure("'share open' is not built yet", exit: .failed)
    }
}
