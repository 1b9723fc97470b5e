// How to use TestSupport: private buses, the broker harness, child processes, waiting with deadlines.
//
// TestSupport is a library for the package's tests and the bench only (in no product).
//
// A private bus per suite or per test (starts in a few milliseconds; stops on deinit):
//
//     let bus = try await TestBus.start()                      // or .start(serviceDirectory: dir)
//     defer { bus.stopInBackground() }                         // or: await bus.stopOffPool()
//     let service = try bus.connect(), client = try bus.connect()
//     // children that should use it: ChildProcess(..., environment: bus.environment)
//
// Waiting for something that happens on another thread (a signal, a completion), never sleeping:
//
//     let signals = Inbox<IncomingSignal>()
//     _ = client.addMatch(rule) { signals.put($0) }           // handler runs on the loop
//     let first = try await signals.next("Finished", deadline: .seconds(10))
//     try await waitUntil("the job to end") { state.value == .done }
//
// Proving a negative: after acting, make a round trip (e.g. Peer.Ping to the sender) and then
// check that nothing arrived — the bus keeps each sender's messages in order.
//
// The real broker, the one way (a BrokerLayout tree under a TemporaryDirectory: XDG dirs,
// PATH, built-in manifests; ready when the bus says its process owns the name, never from
// its log; at most BrokerSlots.shared at once):
//
//     let broker = try await BrokerHarness(manifests: ["a.json": execManifest(...)])
//     let client = try broker.bus.connect()       // clients: environment: broker.environment
//     try await broker.restart()                  // or start(arguments:), launch(), stopBroker()
//
// A scratch directory: `let directory = try TemporaryDirectory(); defer { directory.remove() }`.
//
// Running the package's executables (built next to the test binary):
//
//     let share = try ChildProcess(executable: try BuiltProducts.executable("share"),
//                                  arguments: ["--list", url], environment: bus.environment)
//     _ = try await share.nextLine { $0.contains("Copy Link") }
//     #expect(try await share.exit() == .exited(0))
//     // or: let run = try await ChildProcess.run(path, args, environment: bus.environment)
//
// ChildProcess spawns through SystemSupport's ProcessSpawner: it resets the signal mask and
// handlers of the child (Swift Testing's threads block SIGTERM/SIGCHLD), never lets it inherit
// our stdout/stderr, and kills it if released while running. Prefer the async waits (`exit`, `nextLine`, `waitUntil`, `Inbox.next`) in async
// tests; the blocking ones (`waitForExit`, `waitForLine`, `blockingWaitUntil`) block a thread.
//
// Never block a concurrency-pool thread (two on CI, shared by every test of the run): in async
// tests start and stop buses, brokers and X servers with their async forms (`TestBus.start`,
// `stopOffPool`, `stopInBackground` in a `defer`), and run other blocking or CPU-heavy work
// in `offPool { … }`, which gives it a thread of its own.
//
// Shared mutable state for `@Sendable` handlers and property getters: `Locked<T>`.

// `Locked` (a value behind a lock, for state that handlers on other threads update and tests
// read) is Locking's, the one the broker uses: re-exported so that tests need no second import.
@_exported import class Locking.Locked
