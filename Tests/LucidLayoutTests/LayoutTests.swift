import LucidLayout
import LucidModel
import Testing

@Suite("Layouts as values")
struct LayoutTests {
    let rect = Rect(x: 0, y: 0, width: 120, height: 40)

    @Test func decoratingPutsTheDecorationLeftAndTheContentRight() {
        var layout = DecoratingLayout(content: TestLayout("content"), decoration: TestLayout("decoration"), decorationWidth: 30, spacing: 2)
        layout.layout(in: rect)
        #expect(layout.contents == [Placed("decoration", 0, 0, 30, 40), Placed("content", 32, 0, 88, 40)])
    }

    @Test func aDecorationTakesAtMostAThird() {
        var layout = DecoratingLayout(content: TestLayout("content"), decoration: TestLayout("decoration"), decorationWidth: 100, spacing: 0)
        layout.layout(in: rect.offsetBy(dx: 10, dy: 5))
        #expect(layout.contents == [Placed("decoration", 10, 5, 40, 40), Placed("content", 50, 5, 80, 40)])
    }

    @Test func cascadingStacksEachChildOverTheLastByTheOffset() {
        var layout = CascadingLayout(
            children: [TestLayout("a", height: 3), TestLayout("b", height: 3), TestLayout("c", height: 3)], offset: (dx: 3, dy: 1))
        layout.layout(in: Rect(x: 2, y: 1, width: 16, height: 5))
        // The last is drawn last, on top.
        #expect(layout.contents == [Placed("a", 2, 1, 10, 3), Placed("b", 5, 2, 10, 3), Placed("c", 8, 3, 10, 3)])
        #expect(CascadingLayout(children: [TestLayout("a", height: 3)], offset: (dx: 3, dy: 1)).height(forWidth: 9) == 3)
        #expect(layout.height(forWidth: 16) == 5)
        #expect(CascadingLayout<TestLayout>(children: [], offset: (dx: 3, dy: 1)).height(forWidth: 16) == 0)
    }

    @Test func aColumnGivesEachRowItsHeightAndSkipsEmptyRows() {
        var column = ColumnLayout<Placed>(rows: [
            AnySizedLayout(TestLayout("one", height: 2)), AnySizedLayout(TestLayout("none", height: 0)),
            AnySizedLayout(TestLayout("three", height: 3)),
        ], spacing: 1)
        #expect(column.height(forWidth: 50) == 6)
        column.layout(in: Rect(x: 4, y: 10, width: 50, height: 20))
        #expect(column.contents == [Placed("one", 4, 10, 50, 2), Placed("none", 4, 13, 50, 0), Placed("three", 4, 13, 50, 3)])
    }

    @Test func aColumnTooShortCutsItsLastRows() {
        var column = ColumnLayout<Placed>(rows: [AnySizedLayout(TestLayout("one", height: 2)), AnySizedLayout(TestLayout("two", height: 2))])
        column.layout(in: Rect(x: 0, y: 0, width: 10, height: 4))
        #expect(column.contents == [Placed("one", 0, 0, 10, 2), Placed("two", 0, 3, 10, 1)])
    }

    @Test func framingInsetsTheChildAndDrawsTheBorderFirst() {
        var framed = FramedLayout(child: TestLayout("child", height: 5), border: TestLayout("border"), padding: (dx: 2, dy: 1))
        #expect(framed.height(forWidth: 80) == 7)
        framed.layout(in: Rect(x: 0, y: 0, width: 80, height: 7))
        #expect(framed.contents == [Placed("border", 0, 0, 80, 7), Placed("child", 2, 1, 76, 5)])
    }

    @Test func compositionsNest() {
        // The talk's cell: a cascade decorating a column.
        var cell = DecoratingLayout(
            content: ColumnLayout<Placed>(rows: [AnySizedLayout(TestLayout("title")), AnySizedLayout(TestLayout("body", height: 4))]),
            decoration: CascadingLayout(children: [TestLayout("x", height: 3), TestLayout("y", height: 3)], offset: (dx: 2, dy: 2)),
            decorationWidth: 12, spacing: 1)
        #expect(cell.height(forWidth: 60) == 6)
        cell.layout(in: Rect(x: 0, y: 0, width: 60, height: 6))
        #expect(cell.contents == [
            Placed("x", 0, 0, 10, 4), Placed("y", 2, 2, 10, 4), Placed("title", 13, 0, 47, 1), Placed("body", 13, 2, 47, 4),
        ])
    }
}
