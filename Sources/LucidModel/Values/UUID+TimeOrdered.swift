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
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: (milliseconds << 16).bigEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: generator.next() as UInt16, toByteOffset: 6, as: UInt16.self)
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
            bytes[6] = bytes[6] & 0x0F | 0x70 // version 7
            bytes[8] = bytes[8] & 0x3F | 0x80 // the RFC 9562 variant
        }
        return UUID(uuid: uuid)
    }
}
