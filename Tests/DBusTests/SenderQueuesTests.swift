// The loop's per-sender backlog policy (SenderQueues): sender order, round-robin, read-only first.
@testable import DBus
import Testing

@Suite struct SenderQueuesTests {
    /// A queued message for the tests: who sent it and its number in that sender's order.
    struct Call: Equatable, CustomStringConvertible {
        let sender: String
        let number: Int
        var description: String { "\(sender)\(number)" }
    }

    /// Queues `count` calls from `sender`, prompt or not.
    func add(_ queues: inout SenderQueues<Call>, _ sender: String, _ count: Int, prompt: Bool = false, from start: Int = 0) {
        for number in start..<(start + count) { queues.append(Call(sender: sender, number: number), from: sender, prompt: prompt) }
    }

    func drain(_ queues: inout SenderQueues<Call>) -> [Call] {
        var out: [Call] = []
        while let next = queues.next() { out.append(next) }
        return out
    }

    @Test("Each sender's messages leave in the order they came, whatever their kind")
    func senderOrder() {
        var queues = SenderQueues<Call>(budget: 3, promptRun: 2)
        for number in 0..<40 {
            // Writes and reads interleaved for three senders.
            for sender in ["a", "b", "c"] {
                queues.append(Call(sender: sender, number: number), from: sender, prompt: (number + sender.count) % 3 == 0)
            }
        }
        let out = drain(&queues)
        #expect(out.count == 120)
        for sender in ["a", "b", "c"] {
            #expect(out.filter { $0.sender == sender }.map(\.number) == Array(0..<40))
        }
        #expect(queues.isEmpty && queues.count == 0)
    }

    @Test("Bulk senders are served round-robin, `budget` messages per visit")
    func roundRobin() {
        var queues = SenderQueues<Call>(budget: 2, promptRun: 8)
        add(&queues, "flood", 6)
        add(&queues, "other", 3)
        #expect(drain(&queues).map(\.description) == ["flood0", "flood1", "other0", "other1", "flood2", "flood3", "other2", "flood4", "flood5"])
    }

    @Test("A read-only call arriving behind a burst is next, not after the burst")
    func promptFirst() {
        var queues = SenderQueues<Call>(budget: 4, promptRun: 8)
        add(&queues, "flood", 1000)
        #expect(queues.next() == Call(sender: "flood", number: 0))
        add(&queues, "victim", 1, prompt: true)
        #expect(queues.next() == Call(sender: "victim", number: 0))
        #expect(queues.count == 999)
    }

    @Test("A read-only call waits for its own sender's earlier writes")
    func promptKeepsSenderOrder() {
        var queues = SenderQueues<Call>(budget: 1, promptRun: 8)
        add(&queues, "flood", 10)
        add(&queues, "app", 2)
        add(&queues, "app", 1, prompt: true, from: 2)
        let out = drain(&queues)
        let app = out.filter { $0.sender == "app" }.map(\.number)
        #expect(app == [0, 1, 2])
        // Once its writes are done, its read goes ahead of the rest of the flood.
        let readAt = out.firstIndex(of: Call(sender: "app", number: 2))!
        #expect(readAt < out.count - 5)
    }

    @Test("A flood of read-only calls cannot starve writers: one write after every `promptRun` reads")
    func readsDoNotStarveWrites() {
        var queues = SenderQueues<Call>(budget: 1, promptRun: 3)
        add(&queues, "reader", 100, prompt: true)
        add(&queues, "writer", 5)
        let out = drain(&queues).prefix(20).map(\.sender)
        #expect(out.filter { $0 == "writer" }.count == 5)
        #expect(Array(out.prefix(4)) == ["reader", "reader", "reader", "writer"])
    }

    @Test("Without bulk allowed only prompt messages leave; bulk ones stay queued in order")
    func promptOnly() {
        var queues = SenderQueues<Call>(budget: 4, promptRun: 2)
        add(&queues, "flood", 5)
        add(&queues, "victim", 3, prompt: true)
        #expect(queues.hasPrompt)
        var out: [Call] = []
        while let next = queues.next(bulk: false) { out.append(next) }
        #expect(out.map(\.description) == ["victim0", "victim1", "victim2"])
        #expect(!queues.hasPrompt && queues.count == 5)
        #expect(drain(&queues).map(\.number) == [0, 1, 2, 3, 4])
    }

    @Test("removeAll(from:) takes one sender's messages in order and leaves the others served fairly")
    func removeSender() {
        var queues = SenderQueues<Call>(budget: 1, promptRun: 8)
        add(&queues, "gone", 4)
        add(&queues, "stays", 3)
        #expect(queues.next() == Call(sender: "gone", number: 0))
        #expect(queues.removeAll(from: "gone").map(\.number) == [1, 2, 3])
        #expect(queues.removeAll(from: "gone").isEmpty)
        #expect(drain(&queues).map(\.description) == ["stays0", "stays1", "stays2"])
        #expect(queues.highWater == 7)
    }
}
