// The broker the figures are taken from: manifests from files, dynamic registrations, the bench's provider, a client.
import ActivityBrokerInterface
import DBus
import TestSupport

/// A started measured broker and the connections that keep it as measured: the registrants'
/// connections (their activities go when they close) and the bench's provider. Hold it for as
/// long as figures are taken; stop `process` with the launcher when done.
struct MeasuredBroker {
    let process: ChildProcess
    let registrants: [BlockingConnection]
    let provider: ProviderService
    /// The bench's client, subscribed to `Job1.Finished`.
    let client: BlockingConnection

    /// Starts the broker on `manifestDirectory` (under `BROKER_BENCH_WRAP` when set), registers
    /// `sizeRun`'s dynamic activities and the bench's provider, and opens the client.
    init(sizeRun: SizeRun, manifestDirectory: String) throws {
        (process, _) = try sizeRun.launcher.start(extensionDirectories: [manifestDirectory], wrapped: true)
        do {
            registrants = try sizeRun.registerDynamic()
            provider = try ProviderService(address: sizeRun.address)
            try provider.register()
            client = try BlockingConnection(address: sizeRun.address)
            try client.addMatch(Job1.finished.rule())
        } catch {
            try? sizeRun.launcher.stop(process)
            throw error
        }
    }
}
