// KeyDecoderTests: byte tables → keys, split input, and the lone-ESC rule.

import Testing
@testable import TerminalUI

@Suite struct KeyDecoderTests {
    static let table: [([UInt8], [Key], String)] = [
        ([0x1B, 0x5B, 0x41], [.up], "CSI up"),
        ([0x1B, 0x5B, 0x42], [.down], "CSI down"),
        ([0x1B, 0x5B, 0x43], [.right], "CSI right"),
        ([0x1B, 0x5B, 0x44], [.left], "CSI left"),
        ([0x1B, 0x4F, 0x41], [.up], "SS3 up"),
        ([0x1B, 0x4F, 0x42], [.down], "SS3 down"),
        ([0x1B, 0x4F, 0x43], [.right], "SS3 right"),
        ([0x1B, 0x4F, 0x44], [.left], "SS3 left"),
        (Array("\u{1B}[1;5A".utf8), [.up], "modified up"),
        (Array("\u{1B}[H".utf8), [.home], "CSI H"),
        (Array("\u{1B}OH".utf8), [.home], "SS3 H"),
        (Array("\u{1B}[1~".utf8), [.home], "home 1~"),
        (Array("\u{1B}[7~".utf8), [.home], "home 7~"),
        (Array("\u{1B}[F".utf8), [.end], "CSI F"),
        (Array("\u{1B}OF".utf8), [.end], "SS3 F"),
        (Array("\u{1B}[4~".utf8), [.end], "end 4~"),
        (Array("\u{1B}[8~".utf8), [.end], "end 8~"),
        (Array("\u{1B}[5~".utf8), [.pageUp], "page up"),
        (Array("\u{1B}[6~".utf8), [.pageDown], "page down"),
        (Array("\u{1B}[3~".utf8), [.delete], "delete"),
        (Array("\u{1B}[Z".utf8), [.backTab], "shift-tab"),
        (Array("\u{1B}OM".utf8), [.enter], "keypad enter"),
        ([0x0D], [.enter], "CR"),
        ([0x0A], [.enter], "LF"),
        ([0x1B], [.escape], "lone ESC"),
        ([0x1B, 0x1B], [.escape, .escape], "two ESC"),
        ([0x1B, 0x71], [.escape, .character("q")], "Alt-q"),
        ([0x1B, 0x5B], [.escape, .character("[")], "unfinished CSI at end"),
        ([0x03], [.ctrlC], "Ctrl-C"),
        ([0x04], [.ctrlD], "Ctrl-D"),
        ([0x7F], [.backspace], "DEL"),
        ([0x08], [.backspace], "BS"),
        ([0x09], [.tab], "Tab"),
        ([0x01], [.control(0x01)], "Ctrl-A"),
        (Array("1a9Z".utf8), [.character("1"), .character("a"), .character("9"), .character("Z")], "ASCII"),
        (Array("é€😀".utf8), [.character("é"), .character("€"), .character("😀")], "UTF-8"),
        ([0xFF], [.unknown([0xFF])], "invalid byte"),
        ([0xC3, 0x41], [.unknown([0xC3]), .character("A")], "bad continuation"),
        ([0xE2, 0x82], [.unknown([0xE2]), .unknown([0x82])], "truncated UTF-8 at end"),
        ([0xC0, 0x80], [.unknown([0xC0]), .unknown([0x80])], "overlong"),
        (Array("\u{1B}[15~".utf8), [.unknown(Array("\u{1B}[15~".utf8))], "F5 unknown"),
        (Array("\u{1B}[<0;1;2M".utf8), [.unknown(Array("\u{1B}[<0;1;2M".utf8))], "mouse report unknown"),
        (Array("\u{1B}[Bx\r".utf8), [.down, .character("x"), .enter], "sequence then keys"),
    ]

    @Test(arguments: table)
    func decodes(bytes: [UInt8], keys: [Key], name: String) {
        #expect(KeyDecoder.decode(bytes) == keys, "\(name)")
    }

    @Test(arguments: table)
    func decodesOneByteAtATime(bytes: [UInt8], keys: [Key], name: String) {
        var decoder = KeyDecoder()
        var result: [Key] = []
        for byte in bytes { result += decoder.feed([byte]) }
        result += decoder.flush()
        #expect(result == keys, "\(name)")
    }

    @Test func loneEscapeWaitsForMoreBytes() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed([0x5B]).isEmpty)
        #expect(decoder.feed([0x41]) == [.up])
        #expect(!decoder.hasPending)
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
    }

    @Test func incompleteUTF8WaitsForContinuation() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE2, 0x82]).isEmpty)
        #expect(decoder.feed([0xAC]) == [.character("€")])
    }

    @Test func runawaySequenceIsDiscarded() {
        let bytes: [UInt8] = [0x1B, 0x5B] + Array(repeating: 0x31, count: 40) + [0x41]
        let keys = KeyDecoder.decode(bytes)
        #expect(keys.first.map { if case .unknown = $0 { true } else { false } } == true)
        #expect(!keys.contains(.up))
    }

    @Test func digitValues() {
        #expect(Key.character("0").digit == 0)
        #expect(Key.character("7").digit == 7)
        #expect(Key.character("a").digit == nil)
        #expect(Key.enter.digit == nil)
    }
}
