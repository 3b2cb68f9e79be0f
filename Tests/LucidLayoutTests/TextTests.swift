import LucidLayout
import Testing

@Suite("Text on the cell grid")
struct TextTests {
    @Test func wrappingBreaksAtSpacesAndInsideWordsLongerThanALine() {
        #expect(TextWrap.lines("flying over a violet sea", width: 10) == ["flying", "over a", "violet sea"])
        #expect(TextWrap.lines("  spaced \n\t out  ", width: 20) == ["spaced out"])
        #expect(TextWrap.lines("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(TextWrap.lines("a abcdefghijkl", width: 5) == ["a", "abcde", "fghij", "kl"])
        #expect(TextWrap.lines(" \n ", width: 5).isEmpty)
    }

    @Test func wideCharactersTakeTwoCells() {
        #expect(TextWrap.columns(of: "🦄") == 2)
        #expect(TextWrap.columns(of: "夢") == 2)
        #expect(TextWrap.columns(of: "é") == 1)
        #expect(TextWrap.columns(of: "e\u{301}") == 1)
        #expect(TextWrap.lines("夢夢夢 🦄🦄", width: 4) == ["夢夢", "夢", "🦄🦄"])
        #expect(TextWrap.truncated("abcdef", width: 4) == "abc…")
        #expect(TextWrap.truncated("abc", width: 4) == "abc")
    }

    @Test func terminalEscapesAndControlsAreStrippedWhole() {
        // Colours, a cursor move, a title change (OSC), a C1 CSI, a bell, a right-to-left override.
        let hostile = "\u{1B}[31mred\u{1B}[0m \u{1B}[2J\u{1B}[Hhome \u{1B}]0;pwned\u{07}title \u{9B}5Aup\u{7} \u{202E}gnp.exe"
        #expect(SafeText.plain(hostile) == "red home title up gnp.exe")
        #expect(SafeText.plain("line\nbreak\ttab\r") == "line break tab ")
        #expect(SafeText.plain("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\") == "link")
        #expect(SafeText.plain("end\u{1B}") == "end")
    }

    @Test func xmlEscapingLeavesNoMarkup() {
        #expect(XML.escaped("</text><script>alert(1)</script>") == "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(XML.escaped("a & \"b\" 'c'") == "a &amp; &quot;b&quot; &#39;c&#39;")
        #expect(XML.escaped("nul\u{0}ffff\u{FFFF}") == "nulffff")
    }

    @Test func theCanvasDrawsLaterRunsOverEarlierOnesAndKeepsWideCharactersWhole() {
        let canvas = TextCanvas(width: 6, height: 2)
        #expect(canvas.drawing([TextRun(row: 0, column: 0, text: "abcdef"), TextRun(row: 0, column: 2, text: "XY")]) == "abXYef\n")
        // A wide character past the right edge is not drawn; one half overwritten blanks the other.
        #expect(canvas.drawing([TextRun(row: 0, column: 5, text: "夢")]) == "\n")
        #expect(canvas.drawing([TextRun(row: 1, column: 0, text: "夢夢"), TextRun(row: 1, column: 1, text: "x")]) == "\n x夢")
        #expect(canvas.drawing([TextRun(row: 5, column: 0, text: "off")]) == "\n")
    }
}
