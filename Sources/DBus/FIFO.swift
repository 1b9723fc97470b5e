// A first-in first-out queue for the loop's backlog.

/// A first-in first-out queue over an array with a moving head (amortised O(1) both ends).
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func removeFirst() -> Element {
        precondition(!isEmpty, "removeFirst on an empty FIFO")
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        storage = Array(storage[head...].filter { !shouldRemove($0) })
        head = 0
    }
}
