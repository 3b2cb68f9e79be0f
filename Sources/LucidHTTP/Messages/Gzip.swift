private import CZlib

/// gzip (RFC 1952) through the system's zlib, for a body compressed once and sent many times.
package enum Gzip {
    /// `bytes` as one gzip member at zlib's best compression, which costs time once and
    /// saves bytes on every answer; `nil` if zlib cannot get the memory it needs, or for a
    /// body of 4 GiB or more (zlib counts in 32 bits), which then goes out as it is. The
    /// same bytes always give the same member.
    package static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count < Int(UInt32.max) else { return nil }
        // zlib's state points back at its stream and refuses a stream that has moved, so the
        // stream lives at one address of its own: `&local` only lends an address per call.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard lucid_zlib_gzip_init(stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(stream) }
        // With room for deflateBound's worst case, one Z_FINISH call makes the whole member.
        let bound = Int(deflateBound(stream, uLong(bytes.count)))
        guard bound < Int(UInt32.max) else { return nil }
        var output = [UInt8](repeating: 0, count: bound)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                // zlib only reads through next_in (it lacks const for old compilers' sake).
                // Both buffers are lent for this call alone, so the stream lets go of them
                // before it returns.
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = uInt(out.count)
                let status = deflate(stream, Z_FINISH)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return status
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.pointee.avail_out))
        return output
    }
}
