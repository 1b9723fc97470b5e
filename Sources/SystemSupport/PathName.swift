// String path helpers shared by the System pieces.
import Glibc

/// String path helpers (paths stay `String`s: every consumer is a system call).
package enum PathName {
    /// Whether `path` is a directory (symlinks followed).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The directory part: "/a/b" → "/a", "/a" → "/", "b" → ".".
    package static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component: "/a/b" → "b".
    package static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `directory` + "/" + `name`, without doubling the root's slash.
    package static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The target of the symbolic link at `path` as stored (`readlink`); nil when it is not one
    /// or cannot be read.
    package static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
