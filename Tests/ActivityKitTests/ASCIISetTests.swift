// ASCIISet: the mask answers like the string it was made from, for every byte.

import Testing

@testable import ActivityKit

struct ASCIISetTests {
    @Test(arguments: ["-._~", "-._~:/?#[]@!$&'()*+,;=%", "", "\u{0}\u{7F}?@"])
    func answersLikeTheString(_ members: String) {
        let set = ASCIISet(members)
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == members.utf8.contains(byte), "byte \(byte)")
        }
    }

    @Test func hexDigitsAreUpperCase() {
        var bytes: [UInt8] = []
        for v: UInt8 in [0x00, 0x0A, 0x7F, 0xAB, 0xFF] { bytes.appendHex(v) }
        #expect(String(decoding: bytes, as: UTF8.self) == "000A7FABFF")
        #expect(String(format2: 0x3C) == "3C")
    }
}
