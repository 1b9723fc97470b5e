// Which application a caller is, as far as its process tells: the `app_id` a share sheet shows.
import DBus
import Dispatch
import Glibc
import Locking
import SystemSupport

/// The application id of a calling process (a desktop file id such as `org.gnome.Nautilus`),
/// or "" when it cannot be told — the sheet then shows no app name.
///
/// Sources, as xdg-desktop-portal reads them: a Flatpak sandbox's `/.flatpak-info`
/// (`[Application] name=`), else the systemd unit of the process's cgroup as desktops name
/// app launches (`app[-<launcher>]-<app id>[@<random>].service`, `app[-<launcher>]-<app
/// id>-<random>.scope`; systemd.io "Desktop Environment Integration"). It is for display
/// only: nothing is granted or refused on its strength (a pid can be reused meanwhile).
enum CallerApplication {
    /// How long the files of one process may take before its id is "" (the sheet or window
    /// opens without the app's name rather than waiting).
    static let readDeadline: Duration = .seconds(2)
    /// Processes whose files are being read at once; past it, the id is "" at once. A caller
    /// can hold every place for as long as its reads hang: app names are then missing for
    /// everyone (display only), and nothing waits.
    static let maximumReading = 4

    /// Reads never run on the loop: `/proc/<pid>/root` is the caller's own view of the file
    /// system, and in a mount namespace of its own a caller can make `.flatpak-info` (or a
    /// directory on its way) a FUSE file whose open or read never returns (a FIFO is refused
    /// without waiting by `SystemCalls.readFile`). Such a read holds one of these places, not
    /// the broker; a place is free again once its read returned.
    ///
    /// One serial queue per place: each gets a thread of its own (serial queues overcommit), so
    /// hung reads never hold the width-limited global pool that other work of the broker uses.
    private static let readers = (0..<maximumReading).map { DispatchQueue(label: "caller-application-\($0)") }
    /// Which places are taken.
    private static let taken = Locked([Bool](repeating: false, count: maximumReading))

    /// How many reads are under way now (for tests that wait for their readers to go).
    static var readsUnderWay: Int { taken.value.filter { $0 }.count }

    /// Asks the bus which process `caller` (a unique name) is, then calls `completion` on the
    /// loop with its id, once; "" when the bus does not say within 5 s, its files are not read
    /// within `readDeadline`, or every place is taken. For the sheet's header and the browser
    /// window's title.
    ///
    /// `reader` is `id(ofProcess:)`; tests give one that blocks as a FUSE file can.
    static func lookUp(
        _ caller: String, on connection: Connection,
        reader: @escaping @Sendable (UInt32) -> String = { id(ofProcess: $0) },
        completion: @escaping (String) -> Void
    ) {
        let query = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus,
            member: "GetConnectionUnixProcessID", body: [.string(caller)])
        connection.call(query, timeout: .seconds(5)) { result in
            guard let pid = (try? result.get())?.first?.uint32 else { return completion("") }
            read(pid, with: reader, on: connection.queue, completion: completion)
        }
    }

    /// `reader` on a free place's queue; `completion` on `loop` with its id, or with "" at the
    /// deadline or at once when every place is taken.
    private static func read(
        _ pid: UInt32, with reader: @escaping @Sendable (UInt32) -> String, on loop: DispatchQueue,
        completion: @escaping (String) -> Void
    ) {
        let place = taken.withLock { taken -> Int? in
            guard let free = taken.firstIndex(of: false) else { return nil }
            taken[free] = true
            return free
        }
        guard let place else { return completion("") }
        let once = UncheckedCompletion(completion, loop: loop)
        loop.asyncAfter(deadline: .now() + readDeadline.dispatchInterval) { once.run("") }
        readers[place].async {
            let id = reader(pid)
            loop.async {
                once.run(id)
                // Freed after the answer is in: whoever sees the place free sees the read done.
                taken.withLock { $0[place] = false }
            }
        }
    }

    /// The id for the process `pid`, reading `procRoot` (`/proc`); "" when none is found.
    /// May block for as long as the process's files do: never on the loop.
    static func id(ofProcess pid: UInt32, procRoot: String = "/proc") -> String {
        let base = "\(procRoot)/\(pid)"
        if let info = text(ofFile: base + "/root/.flatpak-info"),
            let id = id(fromFlatpakInfo: info)
        {
            return id
        }
        if let cgroup = text(ofFile: base + "/cgroup"), let id = id(fromCgroup: cgroup) {
            return id
        }
        return ""
    }

    /// The UTF-8 text of a small file; nil when it cannot be read or is not UTF-8.
    private static func text(ofFile path: String) -> String? {
        guard let bytes = try? SystemCalls.readFile(path, limit: 1 << 20) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `name=` of the `[Application]` group of a `.flatpak-info` key file.
    static func id(fromFlatpakInfo text: String) -> String? {
        var inApplication = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("[") {
                inApplication = trimmed == "[Application]"
            } else if inApplication, trimmed.hasPrefix("name=") {
                return valid(String(trimmed.dropFirst("name=".count)))
            }
        }
        return nil
    }

    /// The app id in the innermost `app-…` unit of a `/proc/<pid>/cgroup` text (the unified
    /// hierarchy's `0::` line, else any line).
    static func id(fromCgroup text: String) -> String? {
        let lines = text.split(whereSeparator: \.isNewline)
        let unified = lines.first { $0.hasPrefix("0::") }
        for line in (unified.map { [$0] } ?? []) + lines {
            guard let path = line.split(separator: ":", maxSplits: 2).last else { continue }
            for unit in path.split(separator: "/").reversed() where unit.hasPrefix("app-") {
                if let id = id(fromUnit: String(unit)) { return id }
            }
        }
        return nil
    }

    /// `app-gnome-org.gnome.Terminal-1234.scope` → `org.gnome.Terminal`;
    /// `app-org.gnome.Terminal@abc.service` → `org.gnome.Terminal`. A `-` inside the id is
    /// escaped as `\x2d` in unit names.
    static func id(fromUnit unit: String) -> String? {
        var name = Substring(unit.dropFirst("app-".count))
        if name.hasSuffix(".scope") {
            name = name.dropLast(".scope".count)
            // A scope always ends in a random part.
            guard let dash = name.lastIndex(of: "-") else { return nil }
            name = name[..<dash]
        } else if name.hasSuffix(".service") {
            name = name.dropLast(".service".count)
            if let at = name.firstIndex(of: "@") { name = name[..<at] }
        } else {
            return nil
        }
        // What is left is `[<launcher>-]<app id>`: the id is the last part.
        guard let last = name.split(separator: "-").last else { return nil }
        return valid(String(last.replacing("\\x2d", with: "-")))
    }

    /// A desktop file id as the sheet may look it up: letters, digits, `._-`, up to 255 bytes.
    private static func valid(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 255,
            id.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "._-".unicodeScalars.contains($0))
            })
        else { return nil }
        return id
    }
}

/// A loop completion run at most once, by whichever of the read and the deadline comes first.
/// `@unchecked Sendable` so the reader's queue may carry it to the loop: it is only ever run
/// there (checked).
private final class UncheckedCompletion: @unchecked Sendable {
    private var completion: ((String) -> Void)?
    private let loop: DispatchQueue

    init(_ completion: @escaping (String) -> Void, loop: DispatchQueue) {
        self.completion = completion
        self.loop = loop
    }

    func run(_ id: String) {
        dispatchPrecondition(condition: .onQueue(loop))
        let completion = completion
        self.completion = nil
        completion?(id)
    }
}
