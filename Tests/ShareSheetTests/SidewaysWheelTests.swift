// Where a mouse wheel's clicks move the Share row, and when they go on to the vertical scroller (no display needed).
import Foundation
import Testing

@testable import ShareSheet

@MainActor
@Suite struct SidewaysWheelTests {
    /// A row 1000 pixels wide seen through 343 (GTK's wheel step is then 343^(2/3) = 49).
    private func target(_ value: Double, _ clicks: Double) -> Double? {
        SidewaysWheel.target(value: value, lower: 0, upper: 1000, page: 343, clicks: clicks)
    }

    @Test func aClickMovesTheRowByGTKsWheelStep() throws {
        #expect(abs(try #require(target(0, 1)) - 49) < 0.01)
        #expect(abs(try #require(target(200, -2)) - 102) < 0.01)
        #expect(abs(try #require(target(100, 0.5)) - 124.5) < 0.01, "smooth wheels give fractions")
    }

    @Test func theRowStopsAtItsEnds() {
        #expect(target(640, 1) == 657)
        #expect(target(20, -1) == 0)
    }

    /// Right to left, GTK's viewport shows the row's start at the highest value: down lowers it.
    @Test func rightToLeftDownMovesOnTowardsTheLeftEnd() throws {
        let start = 657.0
        let down = try #require(
            SidewaysWheel.target(
                value: start, lower: 0, upper: 1000, page: 343, clicks: 1, direction: .rightToLeft))
        #expect(abs(down - 608) < 0.01)
        #expect(
            SidewaysWheel.target(
                value: start, lower: 0, upper: 1000, page: 343, clicks: -1, direction: .rightToLeft)
                == nil, "up at the start goes on to the vertical scroller")
        #expect(
            SidewaysWheel.target(
                value: 0, lower: 0, upper: 1000, page: 343, clicks: 1, direction: .rightToLeft)
                == nil, "down at the end too")
    }

    @Test func clicksTheRowCannotUseGoOnToTheVerticalScroller() {
        #expect(target(657, 1) == nil, "at the end")
        #expect(target(0, -1) == nil, "at the start")
        #expect(target(10, 0) == nil, "no vertical movement")
        #expect(
            SidewaysWheel.target(value: 0, lower: 0, upper: 300, page: 300, clicks: 1) == nil,
            "a row that fits")
    }
}
