// The org.activitybroker.Broker1 interface table: signatures and handlers (API.md §3).
import ActivityKit
import DBus

/// Builds the exported interface. Introspection, `Properties` and signature checks come
/// from this same table (the DBus module), so the documented interface cannot drift.
enum BrokerInterface {
    static func make(_ broker: Broker) -> Interface {
        Interface(
            Broker.interfaceName,
            methods: [
                Method(
                    "ListActivities", in: [arg("items", "a{sv}"), arg("options", "a{sv}")],
                    out: [arg("activities", "aa{sv}")],
                    handler: .encoded { call in
                        try broker.listActivities(
                            items: call.body[0].vardict ?? [:], options: call.body[1].vardict ?? [:],
                            caller: call.sender)
                    }),
                Method(
                    "Perform", in: [arg("id", "s"), arg("items", "a{sv}"), arg("options", "a{sv}")],
                    out: [arg("job", "o")],
                    handler: .immediate { call in
                        [.objectPath(try broker.jobs.perform(
                            id: call.body[0].string ?? "", items: call.body[1].vardict ?? [:],
                            options: call.body[2].vardict ?? [:], caller: call.sender))]
                    }),
                Method(
                    "RegisterActivity", in: [arg("activity", "a{sv}")],
                    handler: .immediate { call in
                        try broker.register(record: call.body[0].vardict ?? [:], caller: call.sender)
                        return []
                    }),
                Method(
                    "UnregisterActivity", in: [arg("id", "s")],
                    handler: .immediate { call in
                        try broker.unregister(id: call.body[0].string ?? "", caller: call.sender)
                        return []
                    }),
                Method(
                    "ListRegistered", in: [arg("options", "a{sv}")], out: [arg("activities", "aa{sv}")],
                    handler: .immediate { call in
                        [.vardictArray(try broker.listRegistered(options: call.body[0].vardict ?? [:]))]
                    }),
                Method(
                    "Explain", in: [arg("id", "s"), arg("items", "a{sv}")],
                    out: [arg("applies", "b"), arg("reason", "s")],
                    handler: .immediate { call in
                        let (applies, reason) = try broker.explain(
                            id: call.body[0].string ?? "", items: call.body[1].vardict ?? [:])
                        return [.boolean(applies), .string(reason)]
                    }),
                Method(
                    "ClearHistory",
                    handler: .immediate { _ in
                        broker.clearHistory()
                        return []
                    }),
            ],
            properties: [
                Property("Version", signature: "s", emitsChanged: false, get: { .string(Broker.version) }),
                Property("ActivityCount", signature: "u", get: { .uint32(UInt32(broker.registry.count)) }),
            ],
            signals: [SignalSpec("ActivitiesChanged")])
    }

    static func arg(_ name: String, _ signature: Signature) -> Argument {
        Argument(name: name, signature: signature)
    }
}
