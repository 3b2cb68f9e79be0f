import CMicroHTTPD
import Synchronization

/// The sockets the server holds for its clients, in total and per client address: those
/// libmicrohttpd serves and the event streams handed over to the ``StreamWriter``.
///
/// libmicrohttpd enforces its limits only on its own connections, and a stream leaves them
/// once handed over; counting both here lets the accept policy hold a client address, and
/// the server as a whole, to one limit over everything they have open.
final class ClientSockets: Sendable {
    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    /// The most sockets in all, and from one address.
    let limit: Int
    let perAddressLimit: Int

    init(limit: Int, perAddressLimit: Int) {
        self.limit = limit
        self.perAddressLimit = perAddressLimit
    }

    /// Whether a new connection from `address` fits under both limits.
    func admits(_ address: String) -> Bool {
        counts.withLock { counts in
            counts.total < limit && counts.byAddress[address, default: 0] < perAddressLimit
        }
    }

    func add(_ address: String) {
        counts.withLock { counts in
            counts.total += 1
            counts.byAddress[address, default: 0] += 1
        }
    }

    func remove(_ address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// The sockets open now.
    var total: Int { counts.withLock { $0.total } }

    /// `address` as text, or "" for a family other than IPv4 and IPv6.
    static func text(of address: UnsafePointer<sockaddr>?) -> String {
        cText(capacity: 64) { lucid_address_text(address, $0, $1) }
    }
}

/// The text `fill` writes, NUL-terminated, into a buffer of `capacity` bytes (it is given the
/// buffer and its size); invalid UTF-8 is repaired.
func cText(capacity: Int, _ fill: (UnsafeMutablePointer<CChar>, Int) -> Void) -> String {
    var buffer = [CChar](repeating: 0, count: capacity)
    buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, capacity) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
