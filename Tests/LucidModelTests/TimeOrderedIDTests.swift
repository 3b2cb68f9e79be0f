import Foundation
import LucidModel
import Testing

/// The ids made for new dreams: RFC 9562 version 7, the time first, the rest random.
@Suite struct TimeOrderedIDTests {
    let time = Timestamp(millisecondsSince1970: 1_795_000_000_123)

    @Test func theFirstFortyEightBitsAreTheMillisecondsAndTheVersionAndVariantAreSet() {
        let ids = (0..<10_000).map { _ in UUID.timeOrdered(at: time) }
        #expect(Set(ids).count == ids.count)
        // 1_795_000_000_123 is 0x01A1_EE56_5E7B.
        for id in ids {
            let text = id.uuidString.lowercased()
            #expect(text.hasPrefix("01a1ee56-5e7b-7"))
            #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]))
        }
    }

    @Test func idsOfALaterMillisecondSortAfterAsBytesAndAsStoredText() {
        for step: Int64 in [1, 999, 86_400_000] {
            let earlier = UUID.timeOrdered(at: time), later = UUID.timeOrdered(at: Timestamp(millisecondsSince1970: time.millisecondsSince1970 + step))
            #expect(withUnsafeBytes(of: earlier.uuid, Array.init).lexicographicallyPrecedes(withUnsafeBytes(of: later.uuid, Array.init)))
            // The stores keep ids as uppercase text, which SQLite and PostgreSQL's C collation sort bytewise.
            #expect(Array(earlier.uuidString.utf8).lexicographicallyPrecedes(Array(later.uuidString.utf8)))
        }
    }

    @Test func timesOutsideFortyEightBitsAreClampedNotTrapped() {
        #expect(UUID.timeOrdered(at: Timestamp(millisecondsSince1970: -5)).uuidString.hasPrefix("00000000-0000-7"))
        #expect(UUID.timeOrdered(at: Timestamp(millisecondsSince1970: .max)).uuidString.hasPrefix("FFFFFFFF-FFFF-7"))
    }

    @Test func everyRandomBitVaries() {
        // Over many ids each of the 74 random bits is seen both set and clear.
        var seenSet = [UInt8](repeating: 0, count: 16), seenClear = [UInt8](repeating: 0, count: 16)
        for _ in 0..<2_000 {
            withUnsafeBytes(of: UUID.timeOrdered(at: time).uuid) { bytes in
                for index in 0..<16 {
                    seenSet[index] |= bytes[index]
                    seenClear[index] |= ~bytes[index]
                }
            }
        }
        let fixed: [Int: UInt8] = [0: 0xFF, 1: 0xFF, 2: 0xFF, 3: 0xFF, 4: 0xFF, 5: 0xFF, 6: 0xF0, 8: 0xC0]
        for index in 0..<16 {
            let free = ~(fixed[index] ?? 0)
            #expect(seenSet[index] & free == free && seenClear[index] & free == free, "byte \(index)")
        }
    }
}
