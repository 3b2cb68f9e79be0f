import Foundation
import Testing
@testable import LucidAPI

/// The ids the server makes for accounts, sessions and shares: random version 4 UUIDs, as Foundation's are.
@Suite struct RandomIDTests {
    @Test func idsAreVersionFourOfTheRFCVariantAndDoNotRepeat() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString.lowercased()
            #expect(text[text.index(text.startIndex, offsetBy: 14)] == "4")
            #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]))
        }
    }

    @Test func everyOtherBitVaries() {
        // Over many ids each of the 122 random bits is seen both set and clear.
        var seenSet = [UInt8](repeating: 0, count: 16), seenClear = [UInt8](repeating: 0, count: 16)
        for _ in 0..<2_000 {
            withUnsafeBytes(of: UUID.random().uuid) { bytes in
                for index in 0..<16 {
                    seenSet[index] |= bytes[index]
                    seenClear[index] |= ~bytes[index]
                }
            }
        }
        let fixed: [Int: UInt8] = [6: 0xF0, 8: 0xC0]
        for index in 0..<16 {
            let free = ~(fixed[index] ?? 0)
            #expect(seenSet[index] & free == free && seenClear[index] & free == free, "byte \(index)")
        }
    }
}
