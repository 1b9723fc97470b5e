// ManifestCheck as the broker's manifest reader sees a file: one over Manifest.maxFileSize is skipped unread.
import ActivityKit

extension ManifestCheck {
    /// `check(_:fileName:origin:)` for a whole file, as the broker's manifest reader takes it.
    ///
    /// The reader skips a file over `Manifest.maxFileSize` (its size limit) before anything
    /// looks at the contents, so an oversized file of only white space masks nothing; `check`
    /// asks whether the bytes are a mask first and would pass it as one. Such a file gets the
    /// report any oversized file gets, in `check`'s own words: `check` of bytes of the same
    /// size whose first is not white space, which stops at the size before reading further.
    static func checkAsRead(_ data: [UInt8], fileName: String, origin: ActivityOrigin = .user) -> Result {
        guard data.count > Manifest.maxFileSize, Manifest.isMask(data) else {
            return check(data, fileName: fileName, origin: origin)
        }
        var unmasked = data
        unmasked[0] = UInt8(ascii: "{")
        return check(unmasked, fileName: fileName, origin: origin)
    }
}
