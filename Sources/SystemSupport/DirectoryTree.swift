// DirectoryTree: every path below a directory, walked with opendir/readdir.
import Glibc

/// The recursive listing `FileManager.subpathsOfDirectory(atPath:)` gave, without Foundation.
package enum DirectoryTree {
    /// Where `d_name` starts in a `dirent`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The paths of every entry below `directory` (files, directories, symlinks; hidden ones
    /// too), relative to it and sorted within each directory. Symlinks are listed, never
    /// followed, `directory` itself included: a symlink or a file there has no entries.
    /// - Throws: `SystemError` from `opendir` when `directory` or a directory below it cannot be
    ///   listed (missing, unreadable), as Foundation threw: the caller sees nothing rather than a part.
    package static func subpaths(of directory: String) throws(SystemError) -> [String] {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw SystemError("lstat", path: directory) }
        guard info.st_mode & S_IFMT == S_IFDIR else { return [] }
        var result: [String] = []
        try walk(directory, prefix: "", into: &result)
        return result
    }

    private static func walk(_ directory: String, prefix: String, into result: inout [String])
        throws(SystemError)
    {
        guard let stream = opendir(directory) else { throw SystemError("opendir", path: directory) }
        var entries: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(stream) {
            // Read in place: a record is only `d_reclen` bytes (see ManifestDirectoryReader).
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory =
                    lstat(PathName.join(directory, name), &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            entries.append((name, isDirectory))
        }
        closedir(stream)
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            let relative = prefix + entry.name
            result.append(relative)
            if entry.isDirectory {
                try walk(PathName.join(directory, entry.name), prefix: relative + "/", into: &result)
            }
        }
    }
}
