// Curl: the one seam to libcurl, loaded at run time, that the terminal's page loader transfers with.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// libcurl's easy interface, opened with `dlopen` from `libcurl.so.4`.
///
/// Why not `URLSession`: on Linux it hands every received chunk to the delegate queue
/// asynchronously, with no back-pressure, so a gzip bomb or an endless body filled hundreds
/// of megabytes before the delegate could count them and stop the transfer. libcurl's write
/// callback runs as the bytes arrive (after decompression) and stops the transfer when it
/// returns short, so the cap holds exactly.
///
/// Why `dlopen`: FoundationNetworking itself links `libcurl.so.4`, so the library is present
/// wherever `share` runs, but its development headers are not a build dependency of this
/// package. The few functions used are declared here with their C prototypes; each wrapper
/// names the function it calls. `curl_easy_setopt` and `curl_easy_getinfo` are variadic in C:
/// they are called through prototypes with one fixed extra argument, which the x86-64 and
/// AArch64 Linux calling conventions pass exactly like the variadic one.
struct Curl: @unchecked Sendable {
    // @unchecked Sendable: only immutable C function pointers, valid for the process's life.

    typealias Handle = OpaquePointer
    typealias WriteCallback =
        @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    typealias ProgressCallback =
        @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32

    private typealias GlobalInit = @convention(c) (Int) -> Int32
    private typealias EasyInit = @convention(c) () -> Handle?
    private typealias SetLong = @convention(c) (Handle, Int32, Int) -> Int32
    private typealias SetPointer = @convention(c) (Handle, Int32, UnsafeRawPointer?) -> Int32
    private typealias Perform = @convention(c) (Handle) -> Int32
    private typealias GetInfo = @convention(c) (Handle, Int32, UnsafeMutableRawPointer) -> Int32
    private typealias Cleanup = @convention(c) (Handle) -> Void
    private typealias StringError = @convention(c) (Int32) -> UnsafePointer<CChar>?
    private typealias ListAppend = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    private typealias ListFree = @convention(c) (OpaquePointer?) -> Void

    private let easyInit: EasyInit
    private let setLong: SetLong
    private let setPointer: SetPointer
    private let perform: Perform
    private let getInfo: GetInfo
    private let cleanup: Cleanup
    private let stringError: StringError
    private let listAppend: ListAppend
    private let listFree: ListFree

    /// The library, or why it could not be opened.
    static let shared: Result<Curl, CurlUnavailable> = Curl.open()

    private static func open() -> Result<Curl, CurlUnavailable> {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(
                CurlUnavailable(detail: dlerror().map { String(cString: $0) } ?? "libcurl.so.4 not found"))
        }
        func symbol<T>(_ name: String, as: T.Type) throws(CurlUnavailable) -> T {
            guard let pointer = dlsym(library, name) else {
                throw CurlUnavailable(detail: "libcurl has no \(name)")
            }
            return unsafeBitCast(pointer, to: T.self)
        }
        do {
            let globalInit = try symbol("curl_global_init", as: GlobalInit.self)
            // CURL_GLOBAL_ALL (3); libcurl counts the calls, FoundationNetworking makes its own.
            guard globalInit(3) == 0 else {
                return .failure(CurlUnavailable(detail: "curl_global_init failed"))
            }
            return .success(
                Curl(
                    easyInit: try symbol("curl_easy_init", as: EasyInit.self),
                    setLong: try symbol("curl_easy_setopt", as: SetLong.self),
                    setPointer: try symbol("curl_easy_setopt", as: SetPointer.self),
                    perform: try symbol("curl_easy_perform", as: Perform.self),
                    getInfo: try symbol("curl_easy_getinfo", as: GetInfo.self),
                    cleanup: try symbol("curl_easy_cleanup", as: Cleanup.self),
                    stringError: try symbol("curl_easy_strerror", as: StringError.self),
                    listAppend: try symbol("curl_slist_append", as: ListAppend.self),
                    listFree: try symbol("curl_slist_free_all", as: ListFree.self)))
        } catch {
            return .failure(error)
        }
    }

    /// `curl_easy_init`.
    func makeHandle() -> Handle? { easyInit() }
    /// `curl_easy_cleanup`.
    func free(_ handle: Handle) { cleanup(handle) }
    /// `curl_easy_setopt` with a `long`.
    @discardableResult
    func set(_ handle: Handle, _ option: Option, _ value: Int) -> Int32 {
        setLong(handle, option.rawValue, value)
    }
    /// `curl_easy_setopt` with a pointer (a string, a list, a callback or its data).
    @discardableResult
    func set(_ handle: Handle, _ option: Option, pointer: UnsafeRawPointer?) -> Int32 {
        setPointer(handle, option.rawValue, pointer)
    }
    /// `curl_easy_perform`: blocks until the transfer ends; returns the `CURLcode`.
    func run(_ handle: Handle) -> Int32 { perform(handle) }
    /// `curl_easy_getinfo` for a `long`.
    func long(_ handle: Handle, _ info: Info) -> Int {
        var value = 0
        _ = withUnsafeMutablePointer(to: &value) {
            getInfo(handle, info.rawValue, UnsafeMutableRawPointer($0))
        }
        return value
    }
    /// `curl_easy_getinfo` for a string; `nil` when libcurl has none.
    func string(_ handle: Handle, _ info: Info) -> String? {
        var value: UnsafePointer<CChar>?
        _ = withUnsafeMutablePointer(to: &value) {
            getInfo(handle, info.rawValue, UnsafeMutableRawPointer($0))
        }
        return value.map { String(cString: $0) }
    }
    /// `curl_easy_strerror`.
    func describe(_ code: Int32) -> String {
        stringError(code).map { String(cString: $0) } ?? "error \(code)"
    }
    /// `curl_slist_append`.
    func append(_ list: OpaquePointer?, _ line: String) -> OpaquePointer? {
        line.withCString { listAppend(list, $0) }
    }
    /// `curl_slist_free_all`.
    func freeList(_ list: OpaquePointer?) { listFree(list) }

    /// The `CURLOPT_*` values used (curl.h: type base + number).
    enum Option: Int32 {
        case writeData = 10001, url = 10002, errorBuffer = 10010, userAgent = 10018, httpHeader = 10023,
            headerData = 10029
        case progressData = 10057, acceptEncoding = 10102, protocolsString = 10318
        case writeFunction = 20011, headerFunction = 20079, progressFunction = 20219
        case noProgress = 43, followLocation = 52, noSignal = 99, protocols = 181
        case timeoutMilliseconds = 155, connectTimeoutMilliseconds = 156
    }

    /// The `CURLINFO_*` values used.
    enum Info: Int32 {
        case responseCode = 0x200002, contentType = 0x100012, redirectURL = 0x10001F
    }

    /// `CURLcode`s the loader tells apart.
    enum Code {
        static let ok: Int32 = 0
        static let couldNotResolveHost: Int32 = 6
        static let couldNotConnect: Int32 = 7
        static let timedOut: Int32 = 28
        static let unknownOption: Int32 = 48
        /// TLS: connect, engine, certificate, cipher, verification, CA file, shutdown, CRL,
        /// issuer, pinned key, certificate status, client certificate.
        static let tls: Set<Int32> = [35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98]
    }
}

/// libcurl could not be opened.
struct CurlUnavailable: Error, CustomStringConvertible {
    var detail: String
    var description: String { "libcurl is not available: \(detail)" }
}
