@testable import LucidHTTP
import Testing
@testable import LucidAPI

@Suite struct EntityTagTests {
    static func tag(_ opaque: String, weak: Bool = false) -> EntityTag { EntityTag(isWeak: weak, opaque: Array(opaque.utf8)) }

    @Test(arguments: [
        (#""12""#, [tag("12")]),
        (#"W/"3""#, [tag("3", weak: true)]),
        (" \"1\" ,W/\"2\",\t\"x\" ", [tag("1"), tag("2", weak: true), tag("x")]),
        (#""a,b", """#, [tag("a,b"), tag("")]),
        (#","1",, ,"2","#, [tag("1"), tag("2")]),
        (#""+5", "005", "-1", "ü""#, [tag("+5"), tag("005"), tag("-1"), tag("ü")]),
        ("", []),
        (" , ", []),
    ])
    func listsThatFollowTheGrammar(_ field: String, _ tags: [EntityTag]) {
        #expect(EntityTag.condition(field) == .tags(tags))
    }

    @Test(arguments: ["*", " *", "*\t ", "%2A", "%2a", " %2A "])
    func anyVersion(_ field: String) {
        #expect(EntityTag.condition(field) == .any)
    }

    @Test(arguments: [
        ("%225%22", [tag("5")]),
        ("W%2F%223%22", [tag("3", weak: true)]),
        ("W/%223%22", [tag("3", weak: true)]),
        ("%221%22%2C%20W%2F%222%22", [tag("1"), tag("2", weak: true)]),
        ("%22%C3%BC%22", [tag("ü")]),
    ])
    func percentEncodedListsReadAsIfPlain(_ field: String, _ tags: [EntityTag]) {
        #expect(EntityTag.condition(field) == .tags(tags))
    }

    // A valid plain field is never decoded: its percent signs are part of its tags.
    @Test func aPlainTagWithAPercentSignKeepsIt() {
        #expect(EntityTag.condition(#""5%22""#) == .tags([Self.tag("5%22")]))
    }

    @Test(arguments: ["5", #""5"#, #"5""#, #""5" "6""#, #"w/"5""#, #"W/ "5""#, #"W/5"#, #"*, "1""#,
                      #""a"b""#, "\"a\u{1}\"", "\"a b\"", #""1";"2""#,
                      "%22", "%225", "%2", "%ZZ", "%22%01%22", "%2A%2C%221%22", "%%225%22"])
    func fieldsThatBreakTheGrammar(_ field: String) {
        #expect(EntityTag.condition(field) == nil)
    }

    @Test(arguments: [("0", 0), ("5", 5), ("1234567", 1_234_567), ("9223372036854775807", Int.max)])
    func canonicalVersions(_ opaque: String, _ version: Int) {
        #expect(Self.tag(opaque).version == version)
        #expect(Self.tag(opaque, weak: true).version == version)
    }

    @Test(arguments: ["", "+5", "005", "00", "-1", "5.0", "1e3", " 5", "٥", "9223372036854775808", "abc"])
    func opaqueTagsThatNameNoVersion(_ opaque: String) {
        #expect(Self.tag(opaque).version == nil)
    }
}
