// Reads the *.json files of one manifest directory, each file's failure kept to itself.
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
}

/// Lists the `*.json` files of a directory (not recursive) and reads them.
///
/// Blocking file I/O on small files; the broker runs it on its loop after a change report,
/// which is debounced. Hidden files (a leading dot, e.g. an editor's or `AtomicFile`'s
/// temporaries) are skipped.
public struct ManifestDirectoryReader: Sendable {
    /// Largest manifest read; larger files are reported as `tooLarge`.
    public var sizeLimit: Int

    public init(sizeLimit: Int = 1 << 20) {
        self.sizeLimit = sizeLimit
    }

    /// Reads every `*.json` file of `directory`.
    public func read(directory: String) -> ManifestDirectoryListing {
        let (names, directoryError) = fileNames(in: directory)
        var listing = ManifestDirectoryListing(directory: directory, directoryError: directoryError)
        for name in names {
            switch read(name, in: directory) {
            case .success(let data): listing.files[name] = data
            case .failure(let error): listing.errors[name] = error
            }
        }
        return listing
    }

    /// The names of the `*.json` files of `directory`, sorted, and the error when it exists
    /// but cannot be listed (a missing directory has no files and no error).
    public func fileNames(in directory: String) -> (names: [String], directoryError: SystemError?) {
        guard let stream = opendir(directory) else {
            if errno != ENOENT && errno != ENOTDIR { return ([], SystemError("opendir", path: directory)) }
            return ([], nil)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = DirectoryEntryName.of(entry)
            guard name.hasSuffix(".json"), name.count > 5, !name.hasPrefix(".") else { continue }
            names.append(name)
        }
        return (names.sorted(), nil)
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
