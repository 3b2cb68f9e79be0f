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
        #expect(EntityTag.list(field) == tags)
    }

    @Test(arguments: ["5", #""5"#, #"5""#, #""5" "6""#, #"w/"5""#, #"W/ "5""#, #"W/5"#, "*", #"*, "1""#,
                      #""a"b""#, "\"a\u{1}\"", "\"a b\"", #""1";"2""#])
    func fieldsThatBreakTheGrammar(_ field: String) {
        #expect(EntityTag.list(field) == nil)
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
