// The activity-broker daemon: parse arguments, start the broker, stop cleanly on SIGTERM/SIGINT.
import ActivityBroker
import ActivityBrokerInterface
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import SystemSupport

if CommandLine.arguments.dropFirst().first == "--version" {
    print(ProjectVersion.line(program: "activity-broker"))
    exit(0)
}

let configuration: BrokerConfiguration
do {
    configuration = try BrokerConfiguration.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        BrokerLog.standardError("activity-broker: \(message)\n\n\(BrokerConfiguration.usage)\n")
        exit(2)
    }
    print(BrokerConfiguration.usage)
    exit(0)
}

// Signals are blocked before any other thread starts, so every thread inherits the mask
// and SIGTERM/SIGINT arrive only through the watcher.
// The started broker, set once `start` returns and read by the signal handler on its own
// queue: behind a lock (a plain global was a data race, ThreadSanitizer under `make sanitize`).
let runningBroker = Mutex<Broker?>(nil)
let signals = SignalWatcher(signals: [SIGTERM, SIGINT], queue: DispatchQueue(label: "activity-broker.signals")) { _ in
    runningBroker.withLock { $0 }?.shutdown()
    exit(0)
}

do {
    let broker = try Broker(configuration: configuration)
    // The broker stopped serving on its own (its name taken over, the bus gone): nothing is
    // left to do, and it has ended its jobs and written its usage already.
    try await broker.start { _ in exit(0) }
    runningBroker.withLock { $0 = broker }
} catch {
    BrokerLog.standardError("activity-broker: \(error)\n")
    exit(1)
}
while true { try await Task.sleep(for: .seconds(3600)) }
