// Exporting a job or session object: its caller's business, at a path no one else can list or guess.
import DBus

extension Connection {
    /// Exports `interface` at `path`, a `TokenObjectInterface` path (`Job1.path(token:)`,
    /// `Session1.path(token:)`): left out of the broker object's introspection, so that no
    /// client can list another caller's jobs or sessions. The token's 128 random bits make the
    /// path unique: a clash is a broken invariant.
    func exportPrivate(_ path: ObjectPath, _ interface: Interface) {
        do {
            try export(path, interfaces: [interface], listed: false)
        } catch {
            preconditionFailure("job and session paths are unique: \(error)")
        }
    }
}
