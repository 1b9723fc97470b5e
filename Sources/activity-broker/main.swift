// The activity-broker daemon: parse arguments, start the broker, stop cleanly on SIGTERM/SIGINT.
import ActivityBroker
import Foundation

let configuration: BrokerConfiguration
do {
    configuration = try BrokerConfiguration.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("activity-broker: \(message)\n\n\(BrokerConfiguration.usage)\n".utf8))
        exit(2)
    }
    print(BrokerConfiguration.usage)
    exit(0)
}

let signals = SignalWatcher(signals: [SIGTERM, SIGINT], queue: DispatchQueue(label: "activity-broker.signals"))
let broker: Broker
do {
    broker = try Broker(configuration: configuration)
    try await broker.start()
} catch {
    FileHandle.standardError.write(Data("activity-broker: \(error)\n".utf8))
    exit(1)
}
signals.onSignal { _ in
    broker.shutdown()
    exit(0)
}
while true { try await Task.sleep(for: .seconds(3600)) }
