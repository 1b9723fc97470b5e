// Overview of the DBus module: a safe Swift layer over libdbus-1 (see the plan in DBUS_API.md).
//
// Threading: each `Connection` owns one serial DispatchQueue, its loop. libdbus watches,
// timeouts and dispatch status are DispatchSources on it; every handler and completion runs on
// it. Public methods can be called from any thread (inline on the loop, else they hop).
//
// Files: the libdbus calls live in ConnectionLoop (watches, timeouts, dispatch), Message
// (building and reading messages), ReplyAddress (what a reply needs of a call, so that a
// received message is released once decoded), ValueCoding (dbus_message_iter_*), Names
// (validators), PendingCall / Exporting / Matching (send, reply, route). No OpaquePointer is
// public.
//
// Safety: libdbus aborts the process on invalid names, paths, signatures or UTF-8, so every
// such value is a validated type (`ObjectPath`, `BusName`, …) or is checked while encoding; bad
// input becomes a `DBusError` named org.freedesktop.DBus.Error.InvalidArgs.
//
// Note on literals: `ObjectPath("/a/b")` with a string *literal* is a literal coercion and uses
// the trapping literal initializer; the throwing `init(_:)` runs for non-literal strings.
//
// Typical service:
//
//     let connection = try Connection(bus: .session)
//     try connection.export("/org/example/Thing", interfaces: [
//         Interface("org.example.Thing1", methods: [
//             Method("Greet", in: [Argument("name", "s")], out: [Argument("greeting", "s")],
//                    handler: .immediate { call in [.string("hi \(call.body[0].string!)")] }),
//         ]),
//     ])
//     _ = try await connection.requestName("org.example.Thing", flags: .doNotQueue)
