import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// One stream's socket as the writer's loop keeps it: what is being written, and how long
/// the client has taken nothing. A value owned by the loop's thread.
struct StreamEntry: Sendable {
    let id: UInt64
    /// The writer's own descriptor of the socket.
    let socket: Int32
    let stream: ResponseStream
    let address: String
    let framing: StreamFraming
    /// What is being written (the head first).
    var pending: Outgoing
    /// `pending` ends the body: close once it is sent.
    var ending = false
    /// The socket is watched for room to write (it is always watched for reading).
    var watchingWrites = false
    /// Since when bytes have waited for a client that takes none, in ``MonotonicClock`` ms.
    var stalledSince: Int64?
    /// Bytes the client sent after its request, read and dropped.
    var discarded = 0

    init(id: UInt64, socket: Int32, stream: ResponseStream, address: String, framing: StreamFraming, head: [UInt8]) {
        self.id = id
        self.socket = socket
        self.stream = stream
        self.address = address
        self.framing = framing
        self.pending = Outgoing(segments: [head])
    }
}

/// Bytes on their way to one socket, in segments sent in order: a big event is written from
/// the bytes every stream shares, never copied into a buffer of each stream's own. Holds the
/// pieces it writes from, so they stay charged to the budget until sent.
struct Outgoing: Sendable {
    private(set) var segments: [[UInt8]]
    private var held: [StreamBytes] = []
    /// The segment being sent, and how much of it is sent.
    private var index = 0
    private var offset = 0

    /// Pieces smaller than this together are copied into one segment, so that small events
    /// go out in one packet with their framing.
    static let copyLimit = 16 << 10

    init(segments: [[UInt8]] = [], holding held: [StreamBytes] = []) {
        self.segments = segments.filter { !$0.isEmpty }
        self.held = held
    }

    var isDone: Bool { index >= segments.count }

    /// Sends what the socket takes at once: the bytes sent, 0 when the socket is full, or -1
    /// when it is broken.
    mutating func send(to socket: Int32) -> Int {
        var written = 0
        while index < segments.count {
            let last = index == segments.count - 1
            // More follows at once: the kernel may hold this segment for the next (MSG_MORE).
            let flags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT) | (last ? 0 : Int32(MSG_MORE))
            let result = segments[index].withUnsafeBytes { bytes in
                Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, flags)
            }
            if result > 0 {
                written += result
                offset += result
                if offset == segments[index].count {
                    index += 1
                    offset = 0
                }
                continue
            }
            if result < 0 && errno == EINTR { continue }
            guard result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return -1 }
            break
        }
        if isDone {
            segments = []
            held = []
            index = 0
        }
        return written
    }
}

/// The writer's event loop: the state of every stream it has, touched by its thread only.
struct StreamLoop {
    /// What serving a stream left it needing.
    private enum Next {
        /// Nothing until the stream or the socket says so.
        case wait
        /// More to write at once, after the others have had their turn.
        case again
        /// Close the socket.
        case close
    }

    /// Bytes written to one stream before the others get a turn.
    private static let quantum = 256 << 10
    /// Bytes a client may send after its request before it is cut: a stream reads nothing.
    private static let discardLimit = 64 << 10
    /// How long the streams left get to send their end once the server stops.
    private static let stopGrace: Int64 = 1000

    private let epoll: Int32
    private let stallMilliseconds: Int64
    private var entries: [UInt64: StreamEntry] = [:]

    init(epoll: Int32, stallMilliseconds: Int64) {
        self.epoll = epoll
        self.stallMilliseconds = stallMilliseconds
    }

    mutating func run(_ writer: StreamWriter) {
        let capacity = 256
        var tokens = [UInt64](repeating: 0, count: capacity)
        var readiness = [Int32](repeating: 0, count: capacity)
        var again: [UInt64] = []
        var stopBy: Int64?
        var lastSweep = MonotonicClock.now
        while true {
            let count = Int(lucid_epoll_wait(epoll, &tokens, &readiness, Int32(capacity), again.isEmpty ? 250 : 0))
            var due = again
            again = []
            var stopping = false
            for index in 0..<max(0, count) {
                let id = tokens[index]
                if id == 0 {
                    let collected = writer.collect()
                    for entry in collected.adopted { start(entry, writer, &due) }
                    due += collected.woken
                    stopping = collected.stopping
                    continue
                }
                let ready = readiness[index]
                if ready & Int32(LUCID_BROKEN) != 0 {
                    finish(id, writer)
                    continue
                }
                if ready & Int32(LUCID_READABLE) != 0 && !drainInput(id) {
                    finish(id, writer)
                    continue
                }
                if ready & Int32(LUCID_WRITABLE) != 0 { due.append(id) }
            }
            // Once a round: a stream may be due twice (its turn ran out last round and its
            // socket is writable), and once served it may be waiting, its socket idle; a
            // second turn would take from an idle stream, which means it is gone.
            var served = Set<UInt64>()
            for id in due where served.insert(id).inserted {
                switch serve(id) {
                case .wait: break
                case .again: again.append(id)
                case .close: finish(id, writer)
                }
            }

            let now = MonotonicClock.now
            if stopping && stopBy == nil { stopBy = now + Self.stopGrace }
            if let stopBy, entries.isEmpty || now >= stopBy { break }
            if now - lastSweep >= 1000 {
                lastSweep = now
                cutStalled(at: now, writer)
            }
        }
        for id in Array(entries.keys) { finish(id, writer) }
    }

    /// Watches a newly adopted socket and queues it to send its head.
    private mutating func start(_ entry: StreamEntry, _ writer: StreamWriter, _ due: inout [UInt64]) {
        guard lucid_epoll_watch(epoll, entry.socket, entry.id, 0, 0) == 0 else {
            writer.release(entry)
            return
        }
        entries[entry.id] = entry
        due.append(entry.id)
    }

    /// Closes the socket of `id`, if still open.
    private mutating func finish(_ id: UInt64, _ writer: StreamWriter) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        lucid_epoll_forget(epoll, entry.socket)
        writer.release(entry)
    }

    /// Writes what `id` has until the socket is full, the stream has nothing more, or its
    /// turn is over.
    private mutating func serve(_ id: UInt64) -> Next {
        // Out of the table while it is changed, so its buffer is not copied on write.
        guard var entry = entries.removeValue(forKey: id) else { return .wait }
        let next = serve(&entry)
        entries[id] = entry
        return next
    }

    private mutating func serve(_ entry: inout StreamEntry) -> Next {
        if entry.stream.wasCut { return .close }
        var written = 0
        while true {
            if !entry.pending.isDone {
                let result = entry.pending.send(to: entry.socket)
                if result < 0 { return .close }
                if result > 0 {
                    written += result
                    entry.stalledSince = nil
                }
                if entry.pending.isDone { continue }
                entry.stalledSince = entry.stalledSince ?? MonotonicClock.now
                return watchWrites(&entry, true) ? .wait : .close
            }
            if entry.ending { return .close }
            if written >= Self.quantum { return .again }
            switch entry.stream.take() {
            case .bytes(let pieces):
                entry.pending = entry.framing.frame(pieces)
            case .wait:
                return watchWrites(&entry, false) ? .wait : .close
            case .end:
                entry.pending = Outgoing(segments: [entry.framing.end])
                entry.ending = true
            case .cut:
                return .close
            }
        }
    }

    /// Watches the socket for room to write, or stops; false if epoll refuses.
    private func watchWrites(_ entry: inout StreamEntry, _ watching: Bool) -> Bool {
        guard entry.watchingWrites != watching else { return true }
        entry.watchingWrites = watching
        return lucid_epoll_watch(epoll, entry.socket, entry.id, watching ? 1 : 0, 1) == 0
    }

    /// Reads and drops what the client sent; false when it has left (or sent too much).
    private mutating func drainInput(_ id: UInt64) -> Bool {
        guard let socket = entries[id]?.socket else { return true }
        while true {
            // MSG_TRUNC discards the bytes in the kernel without copying them out (tcp(7)).
            let received = recv(socket, nil, Self.discardLimit, Int32(MSG_TRUNC | MSG_DONTWAIT))
            if received > 0 {
                entries[id]!.discarded += received
                return entries[id]!.discarded <= Self.discardLimit
            }
            if received < 0 && errno == EINTR { continue }
            return received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    /// Cuts every client that has taken nothing for the stall limit while bytes waited.
    private mutating func cutStalled(at now: Int64, _ writer: StreamWriter) {
        let stalled = entries.values.filter { entry in
            entry.stalledSince.map { now - $0 >= stallMilliseconds } ?? false
        }
        for entry in stalled { finish(entry.id, writer) }
    }
}
