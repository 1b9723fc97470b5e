// A fresh directory under /tmp for a test, a bus or a broker (the one temporary-directory helper), and reading files back.
import Foundation
import Glibc
import SystemSupport

/// A new, empty directory (`mkdtemp`, mode 0700) that the owner removes with `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path, with no symlink in it (a symlinked `/tmp` is resolved):
    /// a test that counts the kernel's symlink budget along a path below it sees only its own.
    public let path: String

    /// Creates `/tmp/<prefix>.XXXXXX`.
    /// - Throws: `SystemError` from `mkdtemp`.
    public init(prefix: String = "activity-broker-test") throws {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let created else { throw SystemError("mkdtemp", path: "/tmp/\(prefix).XXXXXX") }
        if let resolved = realpath(created, nil) {
            path = String(cString: resolved)
            free(resolved)
        } else {
            path = String(cString: created)
        }
    }

    private init(path: String) { self.path = path }

    /// A new directory `name` inside this one (removed with it), for tests that want several.
    public func directory(_ name: String) throws -> TemporaryDirectory {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: false)
        return TemporaryDirectory(path: file(name))
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it; errors are ignored (a test's cleanup).
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The contents of a file as a string, or nil when it cannot be read.
public func contents(of path: String) -> String? {
    FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
}
