// Reads the *.json files of one manifest directory, each file's failure kept to itself.
import ActivityKit
import Dispatch
import Glibc
import SystemSupport

/// Why one manifest file was not read.
public enum ManifestFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Larger than the reader's size limit.
    case tooLarge(limit: Int)
    /// Named `*.json` but neither a regular file nor a symlink to one (a directory, a FIFO).
    case notRegularFile
    /// open/read failed (permissions, a dangling symlink, an I/O error).
    case unreadable(SystemError)

    public var description: String {
        switch self {
        case .tooLarge(let limit): return "larger than \(limit) bytes"
        case .notRegularFile: return "not a regular file"
        case .unreadable(let error): return error.description
        }
    }
}

/// What one manifest directory holds.
public struct ManifestDirectoryListing: Sendable {
    /// The directory that was read.
    public var directory: String
    /// File name (e.g. `telegram.json`) → contents. An empty file is here with empty data
    /// (it masks a lower manifest of the same name).
    public var files: [String: [UInt8]] = [:]
    /// File name → why it was skipped; the other files are unaffected.
    public var errors: [String: ManifestFileError] = [:]
    /// Set when the directory exists but cannot be listed. A missing directory is normal and
    /// gives an empty listing without an error.
    public var directoryError: SystemError?
    /// Why some files were not read at all (`ManifestDirectoryReader`'s limits), one log
    /// line naming the directory; `nil` when all were.
    public var cut: String?
}

/// Lists the `*.json` files of a directory (not recursive) and reads them.
///
/// Blocking file I/O on small files; the broker runs it on its loop after a change report,
/// which is debounced. Hidden files (a leading dot, e.g. an editor's or `AtomicFile`'s
/// temporaries) are skipped.
///
/// A directory is input nobody vetted, so it is read within the same bounds as an
/// applications directory: at most `maximumNames` names listed (any name counts, as
/// `readdir` must read it) and `maximumDirectoryBytes` of manifests read together; past
/// either the rest is left out, with one problem naming the directory.
public struct ManifestDirectoryReader: Sendable {
    /// Names read from one directory at most: the applications directories' walk bound
    /// (`DirectoryTree.Limits.entries`), one number for both.
    public static let maximumNames = DirectoryTree.Limits().entries
    /// Bytes of files read from one directory together, for manifests and for the desktop
    /// files of one applications directory alike: 64 MiB, thousands of times what real
    /// directories hold, while links could make 65,536 names of one 1 MiB file.
    public static let maximumDirectoryBytes = 64 << 20

    /// Largest manifest read; larger files are reported as `tooLarge`.
    public var sizeLimit: Int
    /// Names listed per directory at most.
    public var nameLimit: Int
    /// Bytes read per directory at most, all files together.
    public var byteBudget: Int

    public init(
        sizeLimit: Int = Manifest.maxFileSize, nameLimit: Int = maximumNames, byteBudget: Int = maximumDirectoryBytes
    ) {
        self.sizeLimit = sizeLimit
        self.nameLimit = nameLimit
        self.byteBudget = byteBudget
    }

    /// The names of one directory's manifests, as `fileNames(in:)` lists them.
    public struct Names: Sendable {
        /// The `*.json` names, sorted.
        public var names: [String] = []
        /// Set when the directory exists but cannot be listed (a missing one has no files and
        /// no error).
        public var directoryError: SystemError?
        /// Whether listing stopped at `nameLimit`, leaving names unread.
        public var truncated = false
    }

    /// Reads every `*.json` file of `directory`, within the limits.
    public func read(directory: String) -> ManifestDirectoryListing {
        let listed = fileNames(in: directory)
        var listing = ManifestDirectoryListing(directory: directory, directoryError: listed.directoryError)
        var cut: [String] = listed.truncated ? [namesCut] : []
        var bytes = 0
        for (index, name) in listed.names.enumerated() {
            guard bytes < byteBudget else {
                cut.append(bytesCut(notRead: listed.names.count - index))
                break
            }
            switch read(name, in: directory) {
            case .success(let data):
                bytes += data.count
                listing.files[name] = data
            case .failure(let error): listing.errors[name] = error
            }
        }
        listing.cut = cut.isEmpty ? nil : cut.joined(separator: "; ")
        return listing
    }

    /// The problem of a directory whose listing stopped at `nameLimit`.
    var namesCut: String { "more than \(nameLimit) names: the manifests after them are not read" }

    /// The problem of a directory whose manifests passed `byteBudget` together.
    func bytesCut(notRead: Int) -> String {
        "\(notRead) manifests not read: over \(byteBudget) bytes together"
    }

    /// The names of the `*.json` files of `directory`, sorted, at most `nameLimit` names
    /// read (which ones a cut listing holds is up to `readdir`'s order).
    public func fileNames(in directory: String) -> Names {
        do throws(SystemError) {
            let listed = try SystemCalls.directoryNames(in: directory, limit: nameLimit) {
                $0.hasSuffix(".json") && $0.count > 5 && !$0.hasPrefix(".")
            }
            return Names(names: listed.names.sorted(), truncated: listed.truncated)
        } catch where error.code == ENOENT || error.code == ENOTDIR {
            return Names()
        } catch {
            return Names(directoryError: error)
        }
    }

    /// The contents of the file `name` of `directory` (any thread).
    public func read(_ name: String, in directory: String) -> Result<[UInt8], ManifestFileError> {
        do throws(SystemError) {
            return .success(try SystemCalls.readFile(PathName.join(directory, name), limit: sizeLimit))
        } catch {
            switch (error.operation, error.code) {
            case ("read", EFBIG): return .failure(.tooLarge(limit: sizeLimit))
            case ("open", EINVAL), ("open", EISDIR): return .failure(.notRegularFile)
            default: return .failure(.unreadable(error))
            }
        }
    }
}
