// The org.activitybroker.Broker1 interface table: the wire signatures bound to the broker's features.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// Builds the exported interface from `Broker1`'s signatures. Introspection, `Properties` and
/// signature checks come from this same table (the DBus module), so the documented interface
/// cannot drift.
enum BrokerInterface {
    static func make(
        offers: Offers, registrations: Registrations, jobs: JobTable, shares: ShareRequests,
        sessions: BrowsingSessions, prewarmer: Prewarmer, activities: ActivityState,
        usage: UsageStore, attributions: Attributions, terminalTriggers: AttributionTerminalTriggers, log: BrokerLog
    ) -> Interface {
        Interface(
            Broker1.interface,
            methods: [
                Broker1.listActivities.method(
                    .encoded { call in
                        try offers.listActivities(
                            items: call.body[0].vardict ?? [:], options: call.body[1].vardict ?? [:],
                            caller: call.sender)
                    }),
                Broker1.perform.method(
                    .deferred { call, responder in
                        let id = call.body[0].string ?? ""
                        let caller = call.sender
                        var items = call.body[1].vardict ?? [:]
                        var options = call.body[2].vardict ?? [:]
                        // A bus name not known is asked about again (once) before a refusal. What
                        // waits for that answer is checked and bounded first, never the whole body,
                        // and each waiting call holds a place among its caller's running jobs, so
                        // that how many wait is bounded too.
                        let names = activities.namesToRefresh(beforePerforming: id)
                        if names != nil {
                            do {
                                items = try ItemsDecoder.checkedForWaiting(items)
                                options = try OptionSchema.perform.validate(options)
                                try jobs.holdPlace(for: caller)
                            } catch {
                                return responder.fail(error)
                            }
                        }
                        let start = { [items, options] in
                            if names != nil { jobs.releasePlace(of: caller) }
                            do {
                                try jobs.perform(id: id, items: items, options: options, caller: caller) { path in
                                    responder.reply([.objectPath(path)])
                                }
                            } catch {
                                responder.fail(error)
                            }
                        }
                        if let names { activities.refresh(names, then: start) } else { start() }
                    }),
                Broker1.registerActivity.method(
                    .immediate { call in
                        try registrations.register(record: call.body[0].vardict ?? [:], caller: call.sender)
                        return []
                    }),
                Broker1.unregisterActivity.method(
                    .immediate { call in
                        try registrations.unregister(id: call.body[0].string ?? "", caller: call.sender)
                        return []
                    }),
                Broker1.listRegistered.method(
                    .immediate { call in
                        [.vardictArray(
                            try offers.listRegistered(options: call.body[0].vardict ?? [:], caller: call.sender))]
                    }),
                Broker1.explain.method(
                    .immediate { call in
                        let (applies, reason) = try offers.explain(
                            id: call.body[0].string ?? "", items: call.body[1].vardict ?? [:], caller: call.sender)
                        return [.boolean(applies), .string(reason)]
                    }),
                Broker1.share.method(
                    .immediate { call in
                        [.objectPath(try shares.share(
                            parentWindow: call.body[0].string ?? "", items: call.body[1].vardict ?? [:],
                            options: call.body[2].vardict ?? [:], caller: call.sender))]
                    }),
                Broker1.browse.method(
                    .immediate { call in
                        [.objectPath(try sessions.browse(
                            parentWindow: call.body[0].string ?? "", url: call.body[1].string ?? "",
                            options: call.body[2].vardict ?? [:], caller: call.sender))]
                    }),
                Broker1.prewarm.method(
                    .immediate { call in
                        try prewarmer.prewarm(call.body[0].stringArray ?? [])
                        return []
                    }),
                Broker1.clearHistory.method(
                    .immediate { _ in
                        // Any connection may call it, as often as it likes: a call with nothing
                        // to forget writes and logs nothing, and the line goes out batched.
                        if usage.clear() { log.frequentEvent("usage history cleared") }
                        return []
                    }),
                Broker1.clearAttributions.method(
                    .immediate { _ in
                        attributions.clear()
                        return []
                    }),
                Broker1.reportAttributionTrigger.method(
                    .deferred { call, responder in
                        terminalTriggers.report(
                            url: call.body[0].string ?? "", page: call.body[1].string ?? "", sender: call.sender,
                            responder: responder)
                    }),
            ],
            properties: [
                Broker1.version.property { .string(Broker.version) },
                Broker1.activityCount.property { .uint32(UInt32(activities.registry.count)) },
            ],
            signals: [Broker1.activitiesChanged.spec])
    }
}
