// Exported objects: dispatch errors, introspection (parsed back and by busctl/gdbus), handlers.
import DBus
import Foundation
import Testing
import TestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

struct Failure: Error, DBusErrorConvertible {
    var dbusError: DBusError { DBusError(name: "org.example.Error.Custom", message: "custom") }
}

struct PlainFailure: Error {}

/// The table most tests export: methods, properties and a signal.
func thingInterface(greeting: Locked<String> = Locked("hello")) -> Interface {
    Interface(
        "org.example.Thing1",
        methods: [
            Method(
                "Greet", in: [Argument("name", "s")], out: [Argument("greeting", "s")],
                handler: .immediate { invocation in
                    [.string("\(greeting.value), \(invocation.body[0].string ?? "")")]
                }),
            Method("Nothing", handler: .immediate { _ in [] }),
            Method(
                "Sender", out: [Argument("sender", "s")], handler: .immediate { [.string($0.sender)] }),
            Method("FailCustom", handler: .immediate { _ in throw Failure() }),
            Method("FailPlain", handler: .immediate { _ in throw PlainFailure() }),
            Method("FailDBus", handler: .immediate { _ in throw DBusError(name: "org.example.Error.X", message: "x") }),
            Method("WrongReply", out: [Argument("n", "i")], handler: .immediate { _ in [.string("not an int")] }),
        ],
        properties: [
            Property("Greeting", signature: "s", access: .readWrite, get: { .string(greeting.value) }) { value, _ in
                greeting.value = value.string ?? ""
            },
            Property("Version", signature: "u", get: { .uint32(3) }),
            Property("Quiet", signature: "as", emitsChanged: false, get: { .stringArray(["a"]) }),
        ],
        signals: [SignalSpec("Changed", arguments: [Argument("what", "s"), Argument("details", "a{sv}")])])
}

@Suite struct ExportTests {
    @Test func callsReachHandlersWithSenderAndBody() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Greet", [.string("you")]) == [.string("hello, you")])
        #expect(try await pair.call("/test/Thing", nil, "Greet", [.string("no interface")]) == [.string("hello, no interface")])
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Sender") == [.string(pair.client.uniqueName)])
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Nothing") == [])
    }

    @Test func dispatchErrorsHaveStandardNamesAndTheServiceAnswersAfter() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        let wrongSignature = await pair.error("/test/Thing", "org.example.Thing1", "Greet", [.int32(1)])
        #expect(wrongSignature?.name == DBusError.invalidArgsName)
        #expect(wrongSignature?.message.contains("'s'") == true)
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "Greet")?.name == DBusError.invalidArgsName)
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "Missing")?.name == DBusError.unknownMethodName)
        #expect(await pair.error("/test/Thing", nil, "Missing")?.name == DBusError.unknownMethodName)
        #expect(await pair.error("/test/Thing", "org.example.Other", "Greet")?.name == DBusError.unknownInterfaceName)
        #expect(await pair.error("/test/Nowhere", "org.example.Thing1", "Greet")?.name == DBusError.unknownObjectName)
        #expect(await pair.error("/test", "org.example.Thing1", "Greet")?.name == DBusError.unknownObjectName)
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "FailCustom")?.name == "org.example.Error.Custom")
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "FailPlain")?.name == DBusError.failedName)
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "FailDBus") == DBusError(name: "org.example.Error.X", message: "x"))
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "WrongReply")?.name == DBusError.failedName)
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Greet", [.string("still")]) == [.string("hello, still")])
    }

    @Test func exportTwiceThrowsAndUnexportStopsAnswering() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        #expect(throws: DBusError.self) { try pair.service.export("/test/Thing", interfaces: [thingInterface()]) }
        pair.service.unexport("/test/Thing")
        #expect(await pair.error("/test/Thing", "org.example.Thing1", "Nothing")?.name == DBusError.unknownObjectName)
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Nothing") == [])
    }

    @Test func peerInterfaceAnswers() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        #expect(try await pair.call("/test/Thing", .peer, "Ping") == [])
        let id = try await pair.call("/test/Thing", .peer, "GetMachineId")
        #expect(id.first?.string?.count == 32)
    }

    @Test func deferredHandlersReplyLaterFromAnyThread() async throws {
        let pair = try await BusPair.start()
        let method = Method(
            "Later", in: [Argument("x", "i")], out: [Argument("y", "i")],
            handler: .deferred { invocation, responder in
                let x = invocation.body[0].int32 ?? 0
                DispatchQueue.global().async { responder.reply([.int32(x * 2)]) }
            })
        let failing = Method(
            "LaterFail", handler: .deferred { _, responder in DispatchQueue.global().async { responder.fail(Failure()) } })
        let throwing = Method("ThrowFirst", handler: .deferred { _, _ in throw Failure() })
        let dropping = Method("Drop", handler: .deferred { _, _ in })
        try pair.service.export(
            "/test/Deferred", interfaces: [Interface("org.example.Deferred", methods: [method, failing, throwing, dropping])])
        #expect(try await pair.call("/test/Deferred", "org.example.Deferred", "Later", [.int32(21)]) == [.int32(42)])
        #expect(await pair.error("/test/Deferred", "org.example.Deferred", "LaterFail")?.name == "org.example.Error.Custom")
        #expect(await pair.error("/test/Deferred", "org.example.Deferred", "ThrowFirst")?.name == "org.example.Error.Custom")
        #expect(await pair.error("/test/Deferred", "org.example.Deferred", "Drop")?.name == DBusError.failedName)
    }

    /// A peer that never replies: the caller gets NoReply at its timeout while the same service
    /// loop keeps answering other calls.
    @Test func unansweredCallTimesOutWithNoReplyWhileTheLoopServesOthers() async throws {
        let pair = try await BusPair.start()
        let parked = Locked<[Responder]>([])
        let hang = Method("Hang", handler: .deferred { _, responder in parked.withLock { $0.append(responder) } })
        try pair.service.export(
            "/test/Slow", interfaces: [Interface("org.example.Slow", methods: [hang]), thingInterface()])
        let outcome = Inbox<Result<[Value], DBusError>>()
        let destination = try BusName(pair.service.uniqueName)
        pair.client.call(
            MethodCall(destination: destination, path: "/test/Slow", interface: "org.example.Slow", member: "Hang"),
            timeout: .seconds(6)
        ) { outcome.put($0) }
        let parkedAt = ContinuousClock.now
        try await waitUntil("the call to be parked") { parked.value.count == 1 }
        for index in 0..<5 {
            let reply = try await pair.call("/test/Slow", "org.example.Thing1", "Greet", [.string("\(index)")])
            #expect(reply == [.string("hello, \(index)")])
        }
        // The loop served those while the call hung; had the machine been so loaded that they
        // outlasted the timeout, the NoReply may already be there, which proves nothing either way.
        if ContinuousClock.now - parkedAt < .seconds(5) { #expect(outcome.count == 0) }
        let result = try await outcome.next("NoReply", deadline: .seconds(10))
        guard case .failure(let error) = result else {
            Issue.record("the hanging call succeeded")
            return
        }
        #expect(error.name == DBusError.noReplyName)
        parked.withLock { $0.removeAll() }  // dropped responders answer Failed; nobody listens
    }

    @Test func cancelledCallNeverCompletes() async throws {
        let pair = try await BusPair.start()
        let parked = Locked<[Responder]>([])
        let hang = Method("Hang", handler: .deferred { _, responder in parked.withLock { $0.append(responder) } })
        try pair.service.export("/test/Slow", interfaces: [Interface("org.example.Slow", methods: [hang])])
        let outcome = Inbox<Result<[Value], DBusError>>()
        let timeout = Duration.seconds(8)
        let calledAt = ContinuousClock.now
        let pending = pair.client.call(
            MethodCall(destination: try BusName(pair.service.uniqueName), path: "/test/Slow", interface: "org.example.Slow", member: "Hang"),
            timeout: timeout
        ) { outcome.put($0) }
        try await waitUntil("the call to be parked") { parked.value.count == 1 }
        // Only a cancel well before the timeout can show that the timeout no longer fires; on a
        // machine so loaded that the call took most of it to arrive, the run proves nothing.
        guard ContinuousClock.now - calledAt < timeout - .seconds(2) else { return }
        #expect(outcome.count == 0)
        pending.cancel()
        parked.value[0].reply([])
        try await pair.settle(pair.client)
        // Past the timeout too: neither the reply nor NoReply may arrive.
        try await Task.sleep(until: calledAt + timeout + .milliseconds(300), clock: .continuous)
        try await pair.settle(pair.client)
        #expect(outcome.count == 0)
    }

    /// Public methods called from inside a handler run inline instead of deadlocking.
    @Test func handlersMayUseTheirConnection() async throws {
        let pair = try await BusPair.start()
        let service = pair.service
        let reentrant = Method(
            "Reexport", out: [Argument("ok", "b")],
            handler: .immediate { _ in
                service.unexport("/test/Other")
                try service.export("/test/Other", interfaces: [thingInterface()])
                try service.emit(Signal(path: "/test/Reentrant", interface: "org.example.Re", member: "Done"))
                service.assertOnLoop()
                return [.boolean(true)]
            })
        try service.export("/test/Reentrant", interfaces: [Interface("org.example.Re", methods: [reentrant])])
        #expect(try await pair.call("/test/Reentrant", "org.example.Re", "Reexport") == [.boolean(true)])
        #expect(try await pair.call("/test/Other", "org.example.Thing1", "Nothing") == [])
    }

    @Test func busHelpersDescribeTheCaller() async throws {
        let pair = try await BusPair.start()
        #expect(try await pair.service.unixProcessID(of: pair.client.uniqueName) == UInt32(getpid()))
        #expect(try await pair.service.unixUser(of: pair.client.uniqueName) == UInt32(getuid()))
        await #expect(throws: DBusError.self) { _ = try await pair.service.unixProcessID(of: ":1.9999") }
        let owned = Inbox<Bool>()
        pair.service.nameHasOwner(try BusName(pair.client.uniqueName)) { owned.put($0) }
        pair.service.nameHasOwner("org.example.Nobody") { owned.put($0) }
        #expect(try await owned.next() == true)
        #expect(try await owned.next() == false)
    }
}
