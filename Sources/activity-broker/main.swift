// The activity-broker daemon: parse arguments, start the broker, stop cleanly on SIGTERM/SIGINT.
import ActivityBroker
import ActivityBrokerInterface
import Dispatch
import Glibc
import Locking
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

// SIGTERM and SIGINT are handled from here on (the watcher's handler is installed before it
// returns), so neither can end the broker without its shutdown.
// The broker, for the signal handler on its own queue: behind a lock (a plain global was a
// data race, ThreadSanitizer under `make sanitize`). Set before `start`: clients see the name
// before `start` returns, and a signal in between exited without ending jobs or writing the
// usage (seen under AddressSanitizer). `shutdown` is safe at any point of `start`: nothing is
// written that `start` has not loaded. The handler takes the broker, so that a `start`
// failing because of that shutdown leaves the exit (0) to the handler.
let runningBroker = Locked<Broker?>(nil)
let signals = SignalWatcher(signals: [SIGTERM, SIGINT], queue: DispatchQueue(label: "activity-broker.signals")) { _ in
    runningBroker.withLock { $0.take() }?.shutdown()
    exit(0)
}

func fail(_ error: any Error) -> Never {
    BrokerLog.standardError("activity-broker: \(error)\n")
    exit(1)
}

let broker: Broker
do {
    broker = try Broker(configuration: configuration)
} catch {
    fail(error)
}
runningBroker.withLock { $0 = broker }
do {
    // The broker stopped serving on its own (its name taken over, the bus gone): nothing is
    // left to do, and it has ended its jobs and written its usage already. Off the loop (it
    // reaps the children meanwhile), what is left of their children is ended before the exit.
    try await broker.start { _ in
        DispatchQueue.global().async {
            SpawnedProcess.endAll(grace: Broker.childrenGrace)
            exit(0)
        }
    }
} catch {
    // Unless a signal's shutdown closed the connection under `start`: its handler exits.
    if runningBroker.withLock({ $0 != nil }) { fail(error) }
}
while true { try await Task.sleep(for: .seconds(3600)) }
