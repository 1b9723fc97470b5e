// FreeMemory: hands the pages of freed heap memory back to the kernel (glibc's malloc_trim).
import Glibc

/// glibc keeps freed memory in its arenas for reuse; after a large transient burst (a catalog
/// of 10,000 manifests read on several threads) that memory stays resident though nothing uses
/// it. `malloc_trim(0)` releases every free page of every arena.
public enum FreeMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// `malloc_trim`, looked up once: the Glibc module does not export `<malloc.h>`. nil on a
    /// C library without it (musl), where there is nothing to do.
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    /// Releases the free pages of every malloc arena; returns whether any memory was released.
    @discardableResult
    public static func release() -> Bool {
        (trim?(0) ?? 0) == 1
    }
}
