// ThreadCapabilities: runs a closure without root's file access overrides, on the calling thread only.
import Glibc

/// Lets a test running as root meet a permission the way another user would: Linux keeps
/// capabilities per thread, and `capset` (raw, not libcap's process-wide helpers) changes
/// only the caller's. Outside root there is nothing to drop.
enum ThreadCapabilities {
    struct Failure: Error { let call: String; let code: Int32 }

    private typealias CapabilityCall =
        @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Int32
    /// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
    private static let version: UInt32 = 0x2008_0522
    private static let dacOverride: UInt32 = 1 << 1
    private static let dacReadSearch: UInt32 = 1 << 2

    static func withoutFileAccessOverride<T>(_ body: () throws -> T) throws -> T {
        guard geteuid() == 0 else { return try body() }
        guard let get = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "capget"),
            let set = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "capset")
        else { throw Failure(call: "dlsym", code: 0) }
        let capget = unsafeBitCast(get, to: CapabilityCall.self)
        let capset = unsafeBitCast(set, to: CapabilityCall.self)
        // struct __user_cap_header_struct { u32 version; int pid }, then two data structs
        // { u32 effective, permitted, inheritable }.
        var header: (UInt32, Int32) = (version, 0)
        var saved: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0)
        guard capget(&header, &saved) == 0 else { throw Failure(call: "capget", code: errno) }
        var dropped = saved
        dropped.0 &= ~(dacOverride | dacReadSearch)
        header = (version, 0)
        guard capset(&header, &dropped) == 0 else { throw Failure(call: "capset", code: errno) }
        defer {
            header = (version, 0)
            // A thread of the shared pool left without these would run later tests unlike root.
            precondition(capset(&header, &saved) == 0, "capset could not restore the thread's capabilities")
        }
        return try body()
    }
}
