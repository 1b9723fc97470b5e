// ExtractionBudget: how much work and processor time reading one page may take.

import Foundation
import Navigation

#if canImport(Glibc)
    import Glibc
#endif

/// The limits of reading one page's HTML: work in proportion to its size, processor time,
/// and cancellation. A hostile page must not hold the terminal, whatever its shape.
public struct ExtractionBudget: Sendable {
    /// Work allowed per input byte (see `Extraction.work`); the reader needs a small
    /// constant, so a page past it is doing something the reader does not expect.
    public var workPerByte: Int
    /// Work allowed whatever the size (small pages, fixed costs).
    public var baseWork: Int
    /// Processor time of the reading thread allowed, in seconds.
    public var processorSeconds: Double
    /// Whether a cancelled task stops the reading.
    public var checksCancellation: Bool

    /// Creates a budget; the defaults are 64 steps a byte plus a million, and 5 s of processor time.
    public init(
        workPerByte: Int = 64, baseWork: Int = 1_000_000, processorSeconds: Double = 5,
        checksCancellation: Bool = true
    ) {
        self.workPerByte = workPerByte
        self.baseWork = baseWork
        self.processorSeconds = processorSeconds
        self.checksCancellation = checksCancellation
    }

    /// No limit and no cancellation: `PageExtractor.extract`.
    public static let unlimited = ExtractionBudget(
        workPerByte: .max / 1024, baseWork: 0, processorSeconds: .infinity, checksCancellation: false)

    func meter(forByteCount count: Int) -> Meter {
        let (product, overflow) = workPerByte.multipliedReportingOverflow(by: max(count, 1))
        let (sum, overflowAgain) = product.addingReportingOverflow(baseWork)
        let limit = overflow || overflowAgain ? Int.max : sum
        return Meter(budget: self, workLimit: limit, start: Meter.threadProcessorTime())
    }

    /// Checks one reading against the budget.
    struct Meter {
        let budget: ExtractionBudget
        let workLimit: Int
        let start: Double

        func check(work: Int) throws(PageLoadError) {
            if budget.checksCancellation, Task.isCancelled { throw .cancelled }
            if work > workLimit {
                throw .tooComplex(detail: "more than \(workLimit) steps of work")
            }
            if budget.processorSeconds.isFinite, Self.threadProcessorTime() - start > budget.processorSeconds
            {
                throw .tooComplex(detail: "more than \(budget.processorSeconds) seconds of processor time")
            }
        }

        /// The calling thread's processor time in seconds (`CLOCK_THREAD_CPUTIME_ID`):
        /// reading is synchronous, so it stays on one thread.
        static func threadProcessorTime() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}

/// What reading a page gave, and what it cost.
public struct Extraction: Sendable {
    /// The page's metadata.
    public var metadata: PageMetadata
    /// Steps taken: bytes scanned, tokens, elements closed, characters kept and re-read.
    public var work: Int
}
