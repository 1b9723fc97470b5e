// Messages read and not yet handled: one FIFO per sender, served round-robin, read-only heads first.

/// The loop's backlog of incoming messages, kept per sender so that one peer's burst cannot
/// delay every other peer (dbus-broker treats fairness between peers as correctness).
///
/// Policy, in the order `next()` applies it:
/// - A sender's messages leave in the order they came: only a queue's head is ever taken, so
///   a read-only call never overtakes its own sender's earlier writes.
/// - Senders whose head is *prompt* (a read-only call, a reply, a signal) are served first,
///   one message per visit, round-robin among them — but after `promptRun` prompt messages in
///   a row one bulk message goes, so a flood of reads cannot starve writers.
/// - Senders whose head is *bulk* (any other call) are served round-robin, up to
///   `budget` messages per visit (the per-peer budget), then go to the back of the ring.
///
/// Pure and generic (no libdbus), so the policy is tested without a bus. Not thread-safe:
/// the connection keeps it on its loop.
struct SenderQueues<Element> {
    /// Bulk messages one sender may have served per visit before the next sender's turn.
    let budget: Int
    /// Prompt messages served in a row while bulk messages wait.
    let promptRun: Int
    /// Messages queued, over every sender.
    private(set) var count = 0
    /// The largest `count` ever reached.
    private(set) var highWater = 0

    private var queues: [String: FIFO<(element: Element, prompt: Bool)>] = [:]
    /// Senders whose head is prompt, and whose head is bulk; each queued sender is in exactly
    /// one of them, or is `current`.
    private var promptRing = FIFO<String>()
    private var bulkRing = FIFO<String>()
    /// The bulk sender being served this visit, and how many it has had.
    private var current: String?
    private var currentServed = 0
    private var promptStreak = 0

    init(budget: Int, promptRun: Int) {
        precondition(budget > 0 && promptRun > 0, "budget and promptRun must be positive")
        self.budget = budget
        self.promptRun = promptRun
    }

    var isEmpty: Bool { count == 0 }

    /// Queues `element` behind everything `sender` sent before.
    mutating func append(_ element: Element, from sender: String, prompt: Bool) {
        count += 1
        highWater = max(highWater, count)
        if queues[sender] != nil {
            queues[sender]!.append((element, prompt))
            return
        }
        var queue = FIFO<(element: Element, prompt: Bool)>()
        queue.append((element, prompt))
        queues[sender] = queue
        if prompt { promptRing.append(sender) } else { bulkRing.append(sender) }
    }

    /// How many messages `sender` has queued (for tests that hold the loop).
    func count(from sender: String) -> Int { queues[sender]?.count ?? 0 }

    /// Whether a prompt message waits (it may be handled even while bulk ones may not).
    var hasPrompt: Bool { !promptRing.isEmpty }

    /// The next message to handle, or nil when nothing is queued. `bulk: false` takes only
    /// prompt messages (the connection's output is backed up).
    mutating func next(bulk: Bool = true) -> Element? {
        let bulkWaiting = bulk && (current != nil || !bulkRing.isEmpty)
        if !promptRing.isEmpty, !bulkWaiting || promptStreak < promptRun {
            let sender = promptRing.removeFirst()
            promptStreak += 1
            return take(from: sender)
        }
        guard bulk else { return nil }
        promptStreak = 0
        if current == nil {
            guard !bulkRing.isEmpty else { return nil }
            current = bulkRing.removeFirst()
            currentServed = 0
        }
        let sender = current!
        currentServed += 1
        let element = queues[sender]!.removeFirst().element
        count -= 1
        if let following = queues[sender]!.first {
            if following.prompt {
                current = nil
                promptRing.append(sender)
            } else if currentServed >= budget {
                current = nil
                bulkRing.append(sender)
            }
        } else {
            queues.removeValue(forKey: sender)
            current = nil
        }
        return element
    }

    /// Takes everything `sender` has queued, in order (to handle it before news of its departure).
    mutating func removeAll(from sender: String) -> [Element] {
        guard var queue = queues.removeValue(forKey: sender) else { return [] }
        if current == sender { current = nil }
        promptRing.removeAll { $0 == sender }
        bulkRing.removeAll { $0 == sender }
        var elements: [Element] = []
        while !queue.isEmpty { elements.append(queue.removeFirst().element) }
        count -= elements.count
        return elements
    }

    /// Takes every queued message, in an order that keeps each sender's own order.
    mutating func removeAll() -> [Element] {
        var elements: [Element] = []
        while let element = next() { elements.append(element) }
        return elements
    }

    /// Takes `sender`'s head and puts the sender at the back of the ring its new head belongs to.
    private mutating func take(from sender: String) -> Element {
        let head = queues[sender]!.removeFirst()
        count -= 1
        if let following = queues[sender]!.first {
            if following.prompt { promptRing.append(sender) } else { bulkRing.append(sender) }
        } else {
            queues.removeValue(forKey: sender)
        }
        return head.element
    }
}
