// A fixed number of plain values in pages of their own (mmap), resident only once written and returned whole when freed.
import Glibc

/// `count` values of a plain type in an anonymous private mapping of their own, read and written
/// in place.
///
/// Why not an array: a table that doubles and halves with bursts of jobs (`FinishedJobs`) left
/// each buffer it outgrew in the malloc heap, where glibc keeps it resident (the heap's mmap
/// threshold rises past such sizes once the broker has freed one big block); and an array is
/// written whole when made. A mapping starts as zero pages that cost nothing until written, and
/// `munmap` gives every page back the moment the buffer goes.
///
/// Not copyable: one owner, which frees the pages when it ends. Values start as zero bytes.
struct PageBuffer<Element: BitwiseCopyable>: ~Copyable {
    private let base: UnsafeMutablePointer<Element>?
    private let bytes: Int
    let count: Int

    /// `count` zeroed values in whole pages; none mapped for 0. A failed `mmap` is out of
    /// memory: the broker stops, as it would on a failed `malloc`.
    init(count: Int) {
        precondition(count >= 0, "a negative count")
        self.count = count
        guard count > 0 else {
            base = nil
            bytes = 0
            return
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        bytes = (count * MemoryLayout<Element>.stride + page - 1) / page * page
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { fatalError("out of memory: mmap of \(bytes) bytes failed (errno \(errno))") }
        base = mapped.bindMemory(to: Element.self, capacity: count)
    }

    deinit {
        if let base { munmap(base, bytes) }
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
            return base.unsafelyUnwrapped[index]
        }
        set {
            precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }
}
