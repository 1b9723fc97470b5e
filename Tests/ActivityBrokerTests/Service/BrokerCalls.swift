// Calls to the broker, signal inboxes and test manifests for the service tests.
import DBus
import Foundation
import TestSupport

extension BrokerFixture {
    /// Calls a Broker1 method (or another interface at another path) on `connection`
    /// (default: the fixture's client).
    @discardableResult
    func call(
        _ member: MemberName, _ body: [Value] = [], on connection: Connection? = nil,
        path: ObjectPath = BrokerFixture.path, interface: InterfaceName? = BrokerFixture.interface
    ) async throws(DBusError) -> [Value] {
        do {
            return try await (connection ?? client).call(
                MethodCall(
                    destination: Self.busName, path: path, interface: interface, member: member, body: body),
                timeout: Deadline.standardWait)
        } catch where error.name == DBusError.noReplyName {
            // Say what the broker was doing: a hang is a bug worth a log.
            let state = brokers.value.last?.termination?.description ?? "running"
            throw DBusError(
                name: error.name, message: "\(error.message); broker \(state); log:\n\(log.suffix(4000))")
        }
    }

    /// The error name a call fails with, nil when it succeeds.
    func errorName(
        _ member: MemberName, _ body: [Value] = [], on connection: Connection? = nil,
        path: ObjectPath = BrokerFixture.path, interface: InterfaceName? = BrokerFixture.interface
    ) async -> String? {
        do {
            try await call(member, body, on: connection, path: path, interface: interface)
            return nil
        } catch {
            return error.name
        }
    }

    /// `ListActivities` for `url`: the ids, in order.
    func offered(
        _ url: String, options: [String: Value] = [:], on connection: Connection? = nil
    ) async throws -> [String] {
        try await offeredRecords(url, options: options, on: connection).compactMap { $0["id"]?.string }
    }

    /// `ListActivities` for `url`: the records, in order.
    func offeredRecords(
        _ url: String, options: [String: Value] = [:], on connection: Connection? = nil
    ) async throws -> [[String: Value]] {
        let reply = try await call(
            "ListActivities", [.vardict(["url": .string(url)]), .vardict(options)], on: connection)
        return (reply.first?.array ?? []).compactMap(\.vardict)
    }

    /// `ListRegistered`: the records by id.
    func registered(on connection: Connection? = nil) async throws -> [String: [String: Value]] {
        let reply = try await call("ListRegistered", [.vardict([:])], on: connection)
        var byID: [String: [String: Value]] = [:]
        for record in (reply.first?.array ?? []).compactMap(\.vardict) {
            if let id = record["id"]?.string { byID[id] = record }
        }
        return byID
    }

    /// `Perform`; the job's path.
    func perform(
        _ id: String, _ items: [String: Value], options: [String: Value] = [:],
        on connection: Connection? = nil
    ) async throws -> ObjectPath {
        sharedItems.withLock { shared in
            for key in ["url", "title", "text"] {
                if let text = items[key]?.string, text.count >= 6 { shared.insert(text) }
            }
        }
        let reply = try await call(
            "Perform", [.string(id), .vardict(items), .vardict(options)], on: connection)
        guard let path = reply.first?.objectPath else { throw DBusError.failed("Perform returned \(reply)") }
        return path
    }

    /// A property of the broker (or of `path`, `interface`).
    func property(
        _ name: String, path: ObjectPath = BrokerFixture.path,
        interface: InterfaceName = BrokerFixture.interface,
        on connection: Connection? = nil
    ) async throws -> Value {
        let reply = try await call(
            "Get", [.string(interface.rawValue), .string(name)], on: connection, path: path,
            interface: .properties)
        return reply.first?.unwrapped ?? .string("")
    }

    /// Subscribes `connection` to signals of the broker or its jobs; subscribe before acting.
    func signals(_ member: MemberName, interface: InterfaceName, on connection: Connection? = nil)
        -> Inbox<IncomingSignal>
    {
        let inbox = Inbox<IncomingSignal>()
        _ = (connection ?? client).addMatch(MatchRule(interface: interface, member: member)) {
            inbox.put($0)
        }
        return inbox
    }

    /// `Finished` signals delivered to `connection`.
    func finishedSignals(on connection: Connection? = nil) -> Inbox<IncomingSignal> {
        signals("Finished", interface: Self.jobInterface, on: connection)
    }

    /// Waits for the `Finished` of `job`: its state and results. Looks at everything the inbox
    /// received (not only unconsumed items), so jobs may finish in any order.
    func finished(_ job: ObjectPath, in inbox: Inbox<IncomingSignal>, deadline: Deadline = .standard)
        async throws -> (state: String, results: [String: Value])
    {
        var found: IncomingSignal?
        try await waitUntil("Finished of \(job)", deadline: deadline) {
            found = inbox.items.first { $0.path == job }
            return found != nil
        }
        return (found!.body.first?.string ?? "", found!.body.dropFirst().first?.vardict ?? [:])
    }

    /// A `Peer.Ping` round trip from `connection` to the broker: every signal the broker sent
    /// `connection` before answering has been delivered once this returns.
    func settle(on connection: Connection? = nil) async throws {
        try await call("Ping", on: connection, interface: .peer)
    }

    /// Registers a dynamic activity served by `connection` at `objectPath`.
    func register(
        _ id: String, name: String? = nil, category: String = "share",
        objectPath: ObjectPath = "/test/provider",
        extra: [String: Value] = [:], on connection: Connection? = nil
    ) async throws(DBusError) {
        var record: [String: Value] = [
            "id": .string(id), "name": .string(name ?? id), "category": .string(category),
            "object_path": .objectPath(objectPath),
        ]
        record.merge(extra) { _, new in new }
        try await call("RegisterActivity", [.vardict(record)], on: connection)
    }
}

/// Manifest JSON for the tests (API.md §4).
enum TestManifest {
    /// A manifest; `perform` and `match` are JSON fragments, e.g. `{"exec": ["true"]}`.
    static func json(
        id: String, name: String? = nil, category: String = "share", perform: String = #"{"exec": ["true"]}"#,
        match: String? = nil, requires: String? = nil, names: [String: String] = [:], priority: Int = 0
    ) -> String {
        var fields = [
            #""id": \#(quoted(id))"#, #""name": \#(quoted(name ?? id))"#, #""icon": "test""#,
            #""category": \#(quoted(category))"#, #""perform": \#(perform)"#, #""priority": \#(priority)"#,
        ]
        if let match { fields.append(#""match": \#(match)"#) }
        if let requires { fields.append(#""requires": \#(requires)"#) }
        if !names.isEmpty {
            let entries = names.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }
            fields.append(#""names": {\#(entries.joined(separator: ", "))}"#)
        }
        return "{" + fields.joined(separator: ", ") + "}\n"
    }

    /// An `exec` perform object running `argv` (strings, placeholders allowed), with `stdin`.
    static func exec(_ argv: [String], stdin: String? = nil) -> String {
        var text = #"{"exec": [\#(argv.map(quoted).joined(separator: ", "))]"#
        if let stdin { text += #", "stdin": \#(quoted(stdin))"# }
        return text + "}"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
