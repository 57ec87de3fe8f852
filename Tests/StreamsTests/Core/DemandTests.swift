import Streams
import Testing

@Suite struct DemandTests {
    @Test func maxReportsCountAndUnlimitedReportsNil() {
        #expect(Subscribers.Demand.max(3).max == 3)
        #expect(Subscribers.Demand.none.max == 0)
        #expect(Subscribers.Demand.unlimited.max == nil)
    }

    @Test func additionSaturatesAtUnlimited() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Subscribers.Demand.unlimited + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(1) + 2 == .max(3))
        var demand = Subscribers.Demand.max(1)
        demand += .max(4)
        #expect(demand == .max(5))
    }

    @Test func subtractionNeverGoesBelowZeroAndUnlimitedStaysUnlimited() {
        #expect(Subscribers.Demand.max(5) - .max(2) == .max(3))
        #expect(Subscribers.Demand.max(2) - .max(5) == .none)
        #expect(Subscribers.Demand.unlimited - .max(5) == .unlimited)
        #expect(Subscribers.Demand.unlimited - .unlimited == .unlimited)
        #expect(Subscribers.Demand.max(5) - .unlimited == .none)
        #expect(Subscribers.Demand.max(5) - 1 == .max(4))
    }

    @Test func multiplicationSaturates() {
        #expect(Subscribers.Demand.max(3) * 4 == .max(12))
        #expect(Subscribers.Demand.unlimited * 2 == .unlimited)
        #expect(Subscribers.Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    }

    @Test func comparisonsWithIntTreatUnlimitedAsLargest() {
        #expect(Subscribers.Demand.unlimited > Int.max)
        #expect(Subscribers.Demand.unlimited != Int.max)
        #expect(Subscribers.Demand.max(1) > 0)
        #expect(!(Subscribers.Demand.none > 0))
        #expect(Subscribers.Demand.max(2) == 2)
        #expect(Subscribers.Demand.max(2) <= 2)
        #expect(0 < Subscribers.Demand.max(1))
        #expect(Subscribers.Demand.max(1) < .unlimited)
    }

    @Test func descriptionNamesTheCase() {
        #expect(Subscribers.Demand.max(4).description == "max(4)")
        #expect(Subscribers.Demand.unlimited.description == "unlimited")
    }

    @Test func subtractingANegativeCountPastIntMaxGivesNoneAsInCombine() {
        #expect(Subscribers.Demand.max(Int.max) - (-1) == .none)
        #expect(Subscribers.Demand.max(5) - (-3) == .max(8))
        #expect(Subscribers.Demand.unlimited - (-1) == .unlimited)
    }

    @Test func addingANegativeCountSaturates() {
        #expect(Subscribers.Demand.max(3) + (-5) == .none)
        #expect(Subscribers.Demand.max(Int.max) + (-1) == .max(Int.max - 1))
        #expect(Subscribers.Demand.unlimited + (-1) == .unlimited)
    }
}
