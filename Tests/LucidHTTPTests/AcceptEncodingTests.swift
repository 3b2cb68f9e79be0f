@testable import LucidHTTP
import Testing

/// `Accept-Encoding` read as RFC 9110 12.5.3 writes it: weights in thousandths, `q=0`
/// refusing, `*` for every coding not listed, identity acceptable unless refused.
@Suite struct AcceptEncodingTests {
    static func element(_ coding: String, _ weight: Int = 1000) -> AcceptEncoding.Element {
        AcceptEncoding.Element(coding: coding, weight: weight)
    }

    @Test(arguments: [
        ("gzip", [element("gzip")]),
        (" GZip ;Q=0.5 ,\tbr; q=1.0, *;q=0", [element("gzip", 500), element("br"), element("*", 0)]),
        ("gzip;q=0.125, deflate;q=0., identity;q=1", [element("gzip", 125), element("deflate", 0), element("identity")]),
        ("gzip;q=0.001, x-gzip;q=1.000", [element("gzip", 1), element("x-gzip")]),
        (",, gzip ,", [element("gzip")]),
        ("", []),
    ])
    func elementsThatFollowTheGrammar(_ field: String, _ elements: [AcceptEncoding.Element]) {
        #expect(AcceptEncoding([field]).elements == elements)
    }

    /// Each is left out whole: a weight out of range or too precise, a parameter that is not
    /// `q`, two weights, no coding, a coding that is not a token.
    @Test(arguments: [
        "gzip;q=2", "gzip;q=1.5", "gzip;q=1.001", "gzip;q=0.0001", "gzip;q=.5", "gzip;q=", "gzip;q=-0",
        "gzip;level=9", "gzip;q=1;q=0", "gzip;", ";q=1", "gz ip", "gzip;q = 1", "\"gzip\"",
    ])
    func malformedElementsAreLeftOut(_ field: String) {
        #expect(AcceptEncoding([field + ", br"]).elements == [Self.element("br")], "\(field)")
    }

    @Test func severalFieldsAreOneList() {
        #expect(AcceptEncoding(["identity;q=0", "gzip"]).elements == [Self.element("identity", 0), Self.element("gzip")])
        #expect(AcceptEncoding([]).elements == nil)
    }

    @Test(arguments: [
        // No field: identity alone. An empty one: identity alone, as RFC 9110 says.
        (nil, .identity), ("", .identity),
        ("gzip", .gzip), ("x-gzip", .gzip), ("GZIP", .gzip), ("gzip;q=0", .identity), ("gzip;q=0.000", .identity),
        ("*", .gzip), ("*;q=0.5", .gzip), ("*;q=0", .identity), ("gzip;q=0, *", .identity), ("identity, *;q=0.1", .identity),
        ("identity", .identity), ("br, deflate", .identity), ("compress, br;q=0.9", .identity),
        // The highest weight wins; gzip on a tie, being first in the server's order.
        ("identity;q=0.5, gzip;q=0.6", .gzip), ("gzip;q=0.5, identity", .identity), ("gzip;q=0.5, identity;q=0.5", .gzip),
        ("*;q=0.3, identity;q=0.2", .gzip),
        // Identity the client does not name comes after every coding it does.
        ("gzip;q=0.5", .gzip), ("gzip;q=0.001", .gzip), ("br, gzip;q=0.1", .gzip),
        // Identity refused, gzip refused or not listed: identity anyway, never nothing.
        ("identity;q=0", .identity), ("identity;q=0, gzip;q=0", .identity), ("identity;q=0, gzip;q=0.001", .gzip),
        // The first element of a coding counts; a malformed one counts for nothing.
        ("gzip, gzip;q=0", .gzip), ("gzip;q=0, x-gzip", .identity), ("gzip;q=2", .identity), ("gzip;level=9", .identity),
    ] as [(String?, ContentCoding)])
    func theClientsWeightsChooseTheCoding(_ field: String?, _ coding: ContentCoding) {
        let accepted = AcceptEncoding(field.map { [$0] } ?? [])
        #expect(accepted.choose([.gzip, .identity]) == coding, "\(field ?? "no field")")
    }

    @Test func weights() {
        let accepted = AcceptEncoding(["br;q=0.9, *;q=0.25"])
        #expect(accepted.weight(of: .gzip) == 250)
        #expect(accepted.weight(of: .identity) == 250)
        #expect(AcceptEncoding(["br"]).weight(of: .identity) == 1, "acceptable, with the least weight")
        #expect(AcceptEncoding([]).weight(of: .identity) == 1000)
        #expect(AcceptEncoding(["br"]).weight(of: .gzip) == 0)
        #expect(AcceptEncoding([]).weight(of: .gzip) == 0)
        #expect(AcceptEncoding(["gzip"]).choose([.identity, .gzip]) == .gzip)
        #expect(AcceptEncoding(["gzip;q=1, identity;q=1"]).choose([.identity, .gzip]) == .identity)
    }
}
