import Foundation

extension Timestamp {
    /// This machine's clock, to the millisecond.
    public static var now: Timestamp { Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
}
