// The name of a readdir(3) record, read in place.
import Glibc

/// `dirent`'s `d_name`, read where it lies.
///
/// A record is only `d_reclen` bytes, so copying the whole 256-byte `d_name` out of the last
/// record of readdir's buffer reads past its end (an ASan heap-buffer-overflow under `make
/// sanitize`): the name is read as the C string it is, in place.
package enum DirectoryEntryName {
    /// Where `d_name` starts in a `dirent`.
    private static let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The name of the record `entry` that `readdir` returned (valid until the next call).
    package static func of(_ entry: UnsafeMutablePointer<dirent>) -> String {
        String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }
}
