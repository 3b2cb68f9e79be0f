#if canImport(Glibc)
import Glibc
#endif

extension TestConnection {
    /// Reads the next chunk of a chunked body: its bytes, or nil for the last chunk (then
    /// the body is over, trailers and all). Throws ``TestClientError/closedEarly`` if the
    /// server closes the connection first.
    public func readChunk() throws -> [UInt8]? {
        let lineEnd = try readUntil(Array("\r\n".utf8))
        let sizeText = String(decoding: pending[..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
        guard let size = Int(sizeText, radix: 16), size >= 0 else {
            throw TestClientError.malformed("chunk size \(sizeText)")
        }
        pending.removeFirst(lineEnd + 2)
        if size == 0 {
            // Trailers, if any, then the blank line that ends the body.
            while true {
                let end = try readUntil(Array("\r\n".utf8))
                pending.removeFirst(end + 2)
                if end == 0 { return nil }
            }
        }
        try fill(atLeast: size + 2)
        guard pending[size] == UInt8(ascii: "\r"), pending[size + 1] == UInt8(ascii: "\n") else {
            throw TestClientError.malformed("chunk of \(size) bytes not followed by CRLF")
        }
        let chunk = Array(pending[..<size])
        pending.removeFirst(size + 2)
        return chunk
    }

    /// Reads chunks until the last one and returns their bytes joined; nil if the server
    /// closed the connection (or reset it) before the body ended.
    public func readChunksToEnd() throws -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            do {
                guard let chunk = try readChunk() else { return body }
                body += chunk
            } catch TestClientError.closedEarly {
                return nil
            } catch TestClientError.system(_, let code) where code == ECONNRESET {
                return nil
            }
        }
    }
}

extension TestConnection {
    /// Reads until the server closes the connection and returns every byte after what was
    /// read before: a body delimited by the connection's end, as HTTP/1.0 has them.
    public func readUntilClosed() throws -> [UInt8] {
        while true {
            do {
                try fill(atLeast: pending.count + 1)
            } catch TestClientError.closedEarly {
                defer { pending = [] }
                return pending
            }
        }
    }
}
