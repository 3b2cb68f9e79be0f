import Foundation
import Testing
@testable import LucidStore

@Suite struct UUIDParsingTests {
    @Test func idsAreReadAsFoundationReadsThemAndNothingElseIs() {
        for id in [UUID(), UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!] {
            #expect(UUID(parsing: id.uuidString) == id)
            #expect(UUID(parsing: id.uuidString.lowercased()) == id)
        }
        for bad in ["", "0000", "00000000-0000-0000-0000-00000000000g", "00000000-0000-0000-0000-0000000000000",
                    "00000000+0000-0000-0000-000000000000", "000000000000-0000-0000-0000-00000000"] {
            #expect(UUID(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func hexadecimalRunsAreReadThirtyTwoDigitsAtATime() {
        let ids = [UUID(), UUID(), UUID()]
        let hex = ids.map { $0.uuidString.replacingOccurrences(of: "-", with: "").lowercased() }.joined()
        #expect(UUID.all(fromHex: hex) == ids)
        #expect(UUID.all(fromHex: hex.uppercased()) == ids)
        #expect(UUID.all(fromHex: "") == [])
        #expect(UUID.all(fromHex: String(hex.dropLast())) == nil)
        #expect(UUID.all(fromHex: String(hex.dropLast()) + "x") == nil)
    }
}
