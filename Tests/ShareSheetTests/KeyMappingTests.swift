// GDK key values onto the model's keys (no display needed: the mapping is a table and gdk_keyval_to_unicode).
import CGtk
import Testing

@testable import ShareSheet

@MainActor
@Suite struct KeyMappingTests {
    private let none = GdkModifierType(rawValue: 0)

    @Test func navigationKeys() {
        #expect(SheetWindow.key(UInt32(GDK_KEY_Escape), none) == .escape)
        #expect(SheetWindow.key(UInt32(GDK_KEY_Return), none) == .enter)
        #expect(SheetWindow.key(UInt32(GDK_KEY_KP_Enter), none) == .enter)
        #expect(SheetWindow.key(UInt32(GDK_KEY_space), none) == .space)
        #expect(SheetWindow.key(UInt32(GDK_KEY_Tab), none) == .tab)
        #expect(SheetWindow.key(UInt32(GDK_KEY_Tab), GDK_SHIFT_MASK) == .shiftTab)
        #expect(SheetWindow.key(UInt32(GDK_KEY_ISO_Left_Tab), GDK_SHIFT_MASK) == .shiftTab)
        #expect(SheetWindow.key(UInt32(GDK_KEY_Down), none) == .down)
        #expect(SheetWindow.key(UInt32(GDK_KEY_BackSpace), none) == .backspace)
    }

    @Test func printableKeysSearch() {
        #expect(SheetWindow.key(UInt32(GDK_KEY_a), none) == .character("a"))
        #expect(SheetWindow.key(UInt32(GDK_KEY_A), GDK_SHIFT_MASK) == .character("A"))
        #expect(SheetWindow.key(UInt32(GDK_KEY_udiaeresis), none) == .character("ü"))
    }

    @Test func shortcutsAndModifiersAreLeftToGTK() {
        #expect(SheetWindow.key(UInt32(GDK_KEY_a), GDK_CONTROL_MASK) == nil)
        #expect(SheetWindow.key(UInt32(GDK_KEY_w), GDK_ALT_MASK) == nil)
        #expect(SheetWindow.key(UInt32(GDK_KEY_Shift_L), GDK_SHIFT_MASK) == nil)
        #expect(SheetWindow.key(UInt32(GDK_KEY_F5), none) == nil)
    }
}
