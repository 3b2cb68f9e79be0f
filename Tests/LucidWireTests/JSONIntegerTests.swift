import Testing
import LucidModel
@testable import LucidJSON
@testable import LucidWire

/// JSON numbers read as JSON Schema reads integers: by value, not by spelling.
@Suite struct JSONIntegerTests {
    @Test(arguments: [
        ("0", 0), ("-0", 0), ("0.0", 0), ("-0.000e7", 0), ("0e-400", 0), ("7", 7), ("-7", -7),
        ("35610", 35610), ("35610.0", 35610), ("35610.000", 35610), ("3.561e4", 35610), ("3.561E+4", 35610),
        ("356100e-1", 35610), ("35610e0", 35610), ("0.0035610e7", 35610), ("1e2", 100), ("-1.0e2", -100),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9.223372036854775807e18", Int.max),
    ])
    func integers(_ text: String, _ value: Int) {
        #expect(JSONInteger(text) == .value(value))
    }

    @Test(arguments: ["0.5", "1.5", "-1.5", "1e-1", "35610.01", "356101e-1", "1.00000000000000000001", "123e-400"])
    func fractions(_ text: String) {
        #expect(JSONInteger(text) == .fractional)
    }

    @Test(arguments: [
        ("9223372036854775808", false), ("-9223372036854775809", true), ("99999999999999999999", false),
        ("1e19", false), ("1e400", false), ("-1e400", true), ("1e99999999999999999999999", false), ("10000000000000000000.0", false),
    ])
    func outOfRange(_ text: String, _ negative: Bool) {
        #expect(JSONInteger(text) == .outOfRange(negative: negative))
    }

    @Test func theReaderTakesEveryIntegerSpelling() throws {
        for (text, expected) in [("3", 3), ("3.0", 3), ("0.3e1", 3), ("300e-2", 3)] {
            var reader = FieldReader()
            #expect(reader.integer(try JSONParser.parse(Array(text.utf8)), at: "/n", in: 1...99) == expected)
            #expect(reader.errors.isEmpty)
        }
        var reader = FieldReader()
        #expect(reader.integer(try JSONParser.parse(Array("3.5".utf8)), at: "/a", in: 1...99) == nil)
        #expect(reader.integer(try JSONParser.parse(Array("1e400".utf8)), at: "/b", in: 1...99) == nil)
        #expect(reader.integer(try JSONParser.parse(Array("100.0".utf8)), at: "/c", in: 1...99) == nil)
        #expect(reader.integer(try JSONParser.parse(Array("-1e400".utf8)), at: "/d") == nil)
        #expect(reader.integer(try JSONParser.parse(Array("\"3\"".utf8)), at: "/e") == nil)
        #expect(reader.errors == [
            .init(pointer: "/a", detail: "must be an integer"),
            .init(pointer: "/b", detail: "must be from 1 to 99"),
            .init(pointer: "/c", detail: "must be from 1 to 99"),
            .init(pointer: "/d", detail: "is too small"),
            .init(pointer: "/e", detail: "must be an integer"),
        ])
    }
}
