public import Foundation

extension UUID {
    /// A new id for a dream made at `time`: an RFC 9562 version 7 UUID, whose first 48 bits
    /// are `time` in milliseconds since 1970 and whose other 74 free bits are random.
    ///
    /// Ids made later sort after ids made earlier (to the millisecond), as bytes and as the
    /// text the stores keep, so a journal's new dream lands at the end of every index keyed
    /// by its id rather than on a random page of it: a write touches the pages the write
    /// before it touched. The time it tells is the dream's `createdAt`, which its owner and
    /// anyone it is shared with already see.
    ///
    /// The random bits come from the system's source (`getrandom` on Linux), where
    /// Foundation's `UUID()` opens, reads and closes `/dev/urandom` for each id.
    public static func timeOrdered(at time: Timestamp) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = min(UInt64(clamping: time.millisecondsSince1970), 0xFFFF_FFFF_FFFF)
        let high = generator.next() as UInt16, low = generator.next() as UInt64
        func byte<T: FixedWidthInteger>(_ value: T, _ shift: T) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(uuid: (
            byte(milliseconds, 40), byte(milliseconds, 32), byte(milliseconds, 24),
            byte(milliseconds, 16), byte(milliseconds, 8), byte(milliseconds, 0),
            0x70 | (byte(high, 8) & 0x0F), byte(high, 0), // version 7
            0x80 | (byte(low, 56) & 0x3F), byte(low, 48), // the RFC 9562 variant
            byte(low, 40), byte(low, 32), byte(low, 24), byte(low, 16), byte(low, 8), byte(low, 0)))
    }
}
