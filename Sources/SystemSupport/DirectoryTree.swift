// DirectoryTree: the files of one suffix below a directory, found as GLib's GIO finds desktop entries.
import Glibc

/// GIO's walk of an applications directory (gdesktopappinfo.c, `get_apps_from_dir`), with the
/// bounds GIO lacks.
///
/// As GIO: the directory is opened through symlinks; a name ending in the suffix is taken
/// whatever it is (a dangling link or a directory too: reading it says what it is) and never
/// descended into; any other name that `stat` (following symlinks) calls a directory is
/// descended into; a directory that cannot be listed is skipped and the rest still counts.
/// Not as GIO: a directory already open further up the same path (a symlink loop, which GIO
/// follows until the kernel's 40-symlink `ELOOP`) is not entered again, and the walk stops at
/// `Limits`: the tree is input nobody vetted. Every such skip is a problem naming the path.
package enum DirectoryTree {
    /// How far and how much one walk reads.
    package struct Limits: Sendable {
        /// Levels of subdirectories below the top one (GIO knows only `PATH_MAX`).
        package var depth: Int
        /// Names read in all directories together, directories and other files included.
        package var entries: Int

        package init(depth: Int = 16, entries: Int = 65_536) {
            self.depth = depth
            self.entries = entries
        }
    }

    /// What one walk found.
    package struct Listing: Sendable {
        /// Paths relative to the top directory (`kde4/kate.desktop`), sorted within each
        /// directory; one path per way of reaching a file (two links to one directory give two).
        package var paths: [String] = []
        /// A directory skipped (unreadable, a loop, too deep) or the point where the entry
        /// limit stopped the walk, with why: one log line each.
        package var problems: [(path: String, message: String)] = []
    }

    /// The files whose names end in `suffix` below `directory` (hidden directories too).
    /// A missing `directory`, or one that is not a directory, has none and is no problem.
    package static func files(endingIn suffix: String, under directory: String, limits: Limits = Limits())
        -> Listing
    {
        var walk = Walk(suffix: suffix, limits: limits)
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno != ENOENT && errno != ENOTDIR {
                walk.listing.problems.append((directory, SystemError("stat").description))
            }
            return walk.listing
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return walk.listing }
        walk.descend(directory, prefix: "", identity: Identity(info))
        return walk.listing
    }

    /// A directory's identity: what a symlink loop repeats.
    private struct Identity: Equatable {
        var device: UInt
        var inode: UInt

        init(_ info: stat) {
            device = UInt(info.st_dev)
            inode = UInt(info.st_ino)
        }
    }

    private struct Walk {
        let suffix: String
        let limits: Limits
        var listing = Listing()
        /// The directories open from the top down to the current one.
        var ancestors: [Identity] = []
        var entriesRead = 0
        var stopped = false

        init(suffix: String, limits: Limits) {
            self.suffix = suffix
            self.limits = limits
        }

        mutating func descend(_ directory: String, prefix: String, identity: Identity) {
            guard !stopped else { return }
            guard let stream = opendir(directory) else {
                listing.problems.append((directory, "not listed: " + SystemError("opendir").description))
                return
            }
            var names: [(name: String, type: UInt8)] = []
            while let entry = readdir(stream) {
                let name = DirectoryEntryName.of(entry)
                if name == "." || name == ".." { continue }
                entriesRead += 1
                if entriesRead > limits.entries {
                    listing.problems.append(
                        (directory, "more than \(limits.entries) entries in the tree: the rest is not listed")
                    )
                    stopped = true
                    break
                }
                names.append((name, entry.pointee.d_type))
            }
            closedir(stream)
            ancestors.append(identity)
            defer { ancestors.removeLast() }
            for (name, type) in names.sorted(by: { $0.name < $1.name }) {
                if stopped { return }
                if name.hasSuffix(suffix) {
                    listing.paths.append(prefix + name)
                    continue
                }
                // A regular file (or a pipe, a socket…) known from `d_type` needs no `stat`.
                guard type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else {
                    continue
                }
                let path = PathName.join(directory, name)
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                let child = Identity(info)
                if ancestors.contains(child) {
                    listing.problems.append(
                        (path, "not listed: a symlink loop (the directory is already open above)"))
                } else if ancestors.count > limits.depth {
                    listing.problems.append((path, "not listed: deeper than \(limits.depth) levels"))
                } else {
                    descend(path, prefix: prefix + name + "/", identity: child)
                }
            }
        }
    }
}
