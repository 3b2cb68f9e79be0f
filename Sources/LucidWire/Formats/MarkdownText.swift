import LucidJSON
import LucidModel

/// The user's own words written into a Markdown document so that they read as the words
/// they are: whatever Markdown, HTML or heading markers a description holds, a renderer
/// (CommonMark, GitHub's) shows its characters, and nothing in it can open a heading, a
/// list, a quote, a code block, a table, a link or an HTML element, or run into the
/// structure around it. The text stays readable as it is: only what could mean something
/// is escaped, with a backslash, which CommonMark allows before any ASCII punctuation.
package enum MarkdownText {
    /// `text` inline, on one line: a tag, a name. Line breaks, which a tag cannot hold,
    /// would end the line; they are written as spaces.
    static func inline(_ text: String) -> String {
        var out: [UInt8] = []
        appendInline(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as paragraphs, ending in a line break (see ``appendBlock(_:to:)``).
    static func block(_ text: String) -> String {
        var out: [UInt8] = []
        appendBlock(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` inline as ``inline(_:)`` describes, as UTF-8.
    static func appendInline(_ text: String, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + text.utf8.count)
        for byte in text.utf8 { appendEscaped(byte, to: &out) }
    }

    /// Appends `text` as paragraphs, as UTF-8, ending in a line break: each line of it on a
    /// line of its own (a hard break, two spaces, between lines of a paragraph), blank lines
    /// kept as paragraph breaks, white space that would indent a line into a code block
    /// written as a character reference, and each line escaped as ``inline(_:)`` and at its
    /// start. Lines end where CommonMark ends them: at LF, CR, or CR LF.
    static func appendBlock(_ text: String, to out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        var lines: [Range<Int>] = []
        var start = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lf || byte == cr {
                lines.append(start..<index)
                index += byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        lines.append(start..<bytes.count)
        while let last = lines.last, isBlank(bytes[last]) { lines.removeLast() }
        while let first = lines.first, isBlank(bytes[first]) { lines.removeFirst() }

        out.reserveCapacity(out.count + bytes.count + bytes.count / 8 + 2)
        for (position, line) in lines.enumerated() {
            if isBlank(bytes[line]) {
                out.append(lf)
                continue
            }
            appendLine(bytes[line], to: &out)
            let breaksHard = position + 1 < lines.count && !isBlank(bytes[lines[position + 1]])
            if breaksHard { out.append(contentsOf: [space, space]) }
            out.append(lf)
        }
    }

    /// One non-blank line, escaped.
    private static func appendLine(_ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var rest = line
        let first = rest.first!
        if first == space || first == tab {
            // Four spaces (or a tab) would make an indented code block, and any indent after
            // a list would continue it: a reference to the first one starts the line with text.
            out.append(contentsOf: (first == space ? "&#32;" : "&#9;").utf8)
            rest = rest.dropFirst()
        } else if escapedFirst.contains(first) {
            out.append(backslash)
            out.append(first)
            rest = rest.dropFirst()
        } else {
            // "1. " or "1) " would open an ordered list: the digits stay, the mark is escaped.
            let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            let after = rest.dropFirst(digits.count)
            if (1...9).contains(digits.count), let mark = after.first, mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")") {
                out.append(contentsOf: digits)
                out.append(backslash)
                out.append(mark)
                rest = after.dropFirst()
            }
        }
        for byte in rest { appendEscaped(byte, to: &out) }
    }

    /// `byte` of UTF-8 with a backslash before it if it is always escaped, a space for a
    /// line break. Bytes of characters beyond ASCII never match, and go out as they are.
    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        if byte == lf || byte == cr {
            out.append(space)
            return
        }
        if byte < 128 && alwaysEscaped[Int(byte)] { out.append(backslash) }
        out.append(byte)
    }

    /// Whether a line holds nothing a reader sees: a renderer takes it for a blank line.
    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == space || $0 == tab }
    }

    /// ASCII characters escaped wherever they are: they may open emphasis, code, links,
    /// HTML, entities, tables, strikethrough or math, or are the escape itself.
    private static let alwaysEscaped: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for character in "\\`*_[]<>&|~$".utf8 { table[Int(character)] = true }
        return table
    }()
    /// ASCII characters escaped at the start of a line: they may open a heading, a list
    /// item or a quote, or underline the line before into a heading.
    private static let escapedFirst: Set<UInt8> = Set("#-+=".utf8)

    private static let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    private static let backslash = UInt8(ascii: "\\")
}
