// PerformSpec: how an activity is carried out (exec, open, D-Bus service, candidates, provider).

/// `perform` of a manifest (API.md §4), or `.provider` for an activity registered over D-Bus.
///
/// `indirect`: a spec is one pointer in its activity's record, shared by every activity that
/// performs the same way once `ActivityInterner` has seen them.
public indirect enum PerformSpec: Hashable, Sendable {
    /// Run a program without a shell.
    case exec(ExecSpec)
    /// Open a URL built from a template with the system's opener.
    case open(OpenSpec)
    /// Call `Provider1.Perform` on a well-known name, starting it by D-Bus activation if needed.
    case dbus(busName: String, objectPath: String)
    /// Call `org.freedesktop.Application.Open` on a `DBusActivatable=true` application's name
    /// (API.md §4.1), starting it by D-Bus activation if needed.
    case application(busName: String, objectPath: String)
    /// Alternatives; `Availability` resolves them to the first that can run.
    case candidates([Candidate])
    /// Call `Provider1.Perform` on the registering connection (unique name `owner`).
    case provider(owner: String, objectPath: String)
}
