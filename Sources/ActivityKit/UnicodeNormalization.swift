// UnicodeNormalization: NFKC and NFD through the Swift runtime's ICU, loaded on first use.
import Glibc

/// Unicode normalization forms the standard library does not offer: NFKC for international
/// host labels (UTS 46) and NFD for comparing names without their diacritics.
///
/// FoundationEssentials has neither, and the broker links no full Foundation (whose tables and
/// ICU cost ~6 MB of memory in every process). The Swift runtime ships its ICU as
/// `lib_FoundationICU.so` next to `libswiftCore.so`; it is opened the first time non-ASCII text
/// needs it and stays open.
enum UnicodeNormalization {
    /// The ICU normalizer instances this file asks for.
    enum Form: Sendable {
        case nfkc, nfd

        var symbol: String {
            switch self {
            case .nfkc: "swift_unorm2_getNFKCInstance"
            case .nfd: "swift_unorm2_getNFDInstance"
            }
        }
    }

    private typealias GetInstance = @convention(c) (UnsafeMutablePointer<Int32>) -> OpaquePointer?
    private typealias Normalize = @convention(c) (
        OpaquePointer?, UnsafePointer<UInt16>?, Int32, UnsafeMutablePointer<UInt16>?, Int32, UnsafeMutablePointer<Int32>
    ) -> Int32

    /// ICU's normalizers and `unorm2_normalize`.
    private struct Normalizers: @unchecked Sendable {
        // Sendable by ICU's contract: a normalizer instance is immutable and thread-safe;
        // the function pointer is plain code.
        let nfkc: OpaquePointer
        let nfd: OpaquePointer
        let normalize: Normalize
    }

    /// nil when the library cannot be loaded.
    private static let normalizers: Normalizers? = {
        guard let library = dlopen("lib_FoundationICU.so", RTLD_NOW | RTLD_LOCAL),
            let normalize = dlsym(library, "swift_unorm2_normalize")
        else { return nil }
        func instance(_ form: Form) -> OpaquePointer? {
            guard let get = dlsym(library, form.symbol) else { return nil }
            var status: Int32 = 0
            let made = unsafeBitCast(get, to: GetInstance.self)(&status)
            return status <= 0 ? made : nil
        }
        guard let nfkc = instance(.nfkc), let nfd = instance(.nfd) else { return nil }
        return Normalizers(nfkc: nfkc, nfd: nfd, normalize: unsafeBitCast(normalize, to: Normalize.self))
    }()

    /// `s` in `form`, or nil when ICU is not available or refuses the text.
    static func normalize(_ s: String, _ form: Form) -> String? {
        guard let normalizers else { return nil }
        let instance = form == .nfkc ? normalizers.nfkc : normalizers.nfd
        let source = Array(s.utf16)
        // NFKC expands a code unit up to 18× (U+FDFA): grow on overflow rather than reserve that.
        var capacity = max(16, source.count * 3)
        while true {
            var status: Int32 = 0
            var output = [UInt16](repeating: 0, count: capacity)
            let length = source.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    normalizers.normalize(
                        instance, input.baseAddress, Int32(input.count), out.baseAddress, Int32(out.count), &status)
                }
            }
            // U_BUFFER_OVERFLOW_ERROR is 15; other positive codes are failures.
            if status == 15 && Int(length) >= capacity {
                capacity = Int(length) + 1
                continue
            }
            guard status <= 0 else { return nil }
            return String(decoding: output[..<Int(length)], as: UTF16.self)
        }
    }

    /// `s` lower-cased without its diacritics (NFD, then nonspacing marks dropped), for
    /// comparing names as a case- and diacritic-insensitive compare would.
    static func caseAndDiacriticFolded(_ s: String) -> String {
        let decomposed = normalize(s, .nfd) ?? s
        var scalars = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }
}
