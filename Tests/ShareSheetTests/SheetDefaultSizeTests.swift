// The sheet's opening size against the monitor's usable area (no display needed: plain arithmetic).
import Testing

@testable import ShareSheet

@MainActor
@Suite struct SheetDefaultSizeTests {
    @Test func aLargeMonitorGetsTheUsualSize() {
        #expect(SheetWindow.defaultSize(fitting: (1920, 1050)) == (420, 560))
        #expect(SheetWindow.defaultSize(fitting: nil) == (420, 560), "no monitor known")
    }

    @Test func aSmallMonitorShrinksEachSideThatDoesNotFit() {
        #expect(SheetWindow.defaultSize(fitting: (640, 480)) == (420, 480))
        #expect(SheetWindow.defaultSize(fitting: (800, 544)) == (420, 544), "800×600 less its panels")
        #expect(SheetWindow.defaultSize(fitting: (360, 720)) == (360, 560), "a phone held upright")
    }
}
