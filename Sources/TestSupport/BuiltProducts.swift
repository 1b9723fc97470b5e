// Locating the package's built executables from inside a test binary.
import Foundation

/// Where SwiftPM put the built products: the directory of the running test binary
/// (`.build/<triple>/debug`), or the directory holding its `.xctest` bundle.
public enum BuiltProducts {
    /// The products directory.
    public static var directory: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // Inside a bundle (…/Foo.xctest/Contents/MacOS/Foo): climb out of it.
        while directory.path != "/", directory.path.contains(".xctest") {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// The path of the built executable `name`; throws when it does not exist (build it first,
    /// e.g. `swift build --product name`; `swift test` builds every executable target).
    public static func executable(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingFileError(what: "executable \(name) in \(directory.path)")
        }
        return path
    }
}

/// A missing file, reported like the other TestSupport failures.
public struct MissingFileError: Error, CustomStringConvertible {
    public let what: String
    public init(what: String) { self.what = what }
    public var description: String { "not found: \(what)" }
}

