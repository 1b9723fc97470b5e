// Show QR Code: offered where qrencode is installed; renders the URL and opens the image.
import Foundation
import TestSupport
import Testing

@Suite struct ShowQRCodeTests {
    static let id = "org.activitybroker.show-qr-code"

    @Test func rendersTheURLAndOpensTheImageWithTheBrokersOpener() async throws {
        let session = try await InstalledSession()
        // A stand-in qrencode: records its arguments and writes the --output file.
        try session.write(
            session.bin + "/qrencode",
            """
            #!/bin/sh
            printf '%s\\n' "$@" > '\(session.records)/qrencode.args'
            for a in "$@"; do case "$a" in --output=*) echo PNG > "${a#--output=}";; esac; done
            """, executable: true)
        let runtime = session.root + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try await session.startBroker(environment: [
            "PATH": session.bin + ":" + BuiltProducts.directory.path + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime,
        ])
        let url = "https://example.org/a?b=$(id)&c=d"
        let (state, results) = try await session.perform(Self.id, url: url)
        #expect(state == "completed", "\(results)")
        let arguments = session.recorded("qrencode")?.split(separator: "\n").map(String.init) ?? []
        #expect(arguments.last == url)
        #expect(arguments.dropLast().last == "--")
        let image = session.recorded("opener")?.trimmingCharacters(in: .newlines) ?? ""
        #expect(image.hasPrefix(runtime + "/activity-broker-qr/") && image.hasSuffix(".png"))
        #expect(FileManager.default.fileExists(atPath: image))
    }

    @Test func withoutQrencodeItIsUnavailable() async throws {
        let session = try await InstalledSession()
        try await session.startBroker(environment: ["PATH": session.bin + ":" + BuiltProducts.directory.path + ":/usr/bin:/bin"])
        #expect(try await !session.offered("https://example.org").contains(Self.id))
        let record = try #require(try await session.registered(Self.id))
        #expect(record["reason"]?.string?.contains("qrencode") == true)
    }
}
