import Testing
@testable import LucidJSON

@Suite struct JSONParserTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func parsesEveryKindOfValueAndKeepsMemberOrder() throws {
        let value = try Self.parse(#" {"b": [1, -2.5e3, true, false, null], "a": "x\n\u00e9\ud83e\udd84"} "#)
        #expect(value == .object([
            ("b", .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null])),
            ("a", .string("x\né🦄")),
        ]))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul",
        "\"unterminated", "\"bad \\q escape\"", "\"tab\tinside\"", "[1] [2]", "{\"a\" 1}", "NaN", "Infinity",
        "\"\\ud83e\"", "\"\\udd84\"", "\"\\u12\"", "// comment\n1",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try Self.parse(text) }
    }

    @Test func refusesDuplicateMembers() {
        #expect(throws: JSONSyntaxError.self) { try Self.parse(#"{"a":1,"a":2}"#) }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: JSONSyntaxError.notUTF8) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.notUTF8) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func refusesNestingPastTheLimitWithoutRecursingFurther() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.tooDeep) { try Self.parse(deep) }
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try Self.parse(allowed)
    }

    @Test func writesWhatItParsesBack() throws {
        let text = #"{"s":"quote \" backslash \\ newline \n tab \t bell \u0007 é","n":[0,-1,2.5e-3],"o":{},"a":[],"t":true,"z":null}"#
        let value = try Self.parse(text)
        #expect(try JSONParser.parse(value.jsonBytes) == value)
        #expect(String(decoding: value.jsonBytes, as: UTF8.self)
            == #"{"s":"quote \" backslash \\ newline \n tab \t bell \u0007 é","n":[0,-1,2.5e-3],"o":{},"a":[],"t":true,"z":null}"#)
    }
}
