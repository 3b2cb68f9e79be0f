/// A response body made a piece at a time, as the client takes it: what a download (a
/// whole journal exported) returns in ``Answer/pulled(head:_:)``.
///
/// The server asks for the next piece only once the client has taken most of what was
/// made before, so a body of any length holds a bounded amount of memory, however slowly
/// the client reads. Pieces are asked for on the server's workers, one at a time and never
/// two at once for the same body, never on an I/O thread: a source may read a database,
/// but each piece should take no longer than an ordinary request does, since it holds a
/// worker meanwhile.
///
/// The source is dropped when the body ends for any reason: whole, cut, the client gone,
/// or the server stopping.
public protocol BodySource: Sendable {
    /// The next piece of the body, about `size` bytes (more or fewer is fine; one dream is
    /// one piece however long it is).
    mutating func next(about size: Int) -> BodyPiece
}

/// What a ``BodySource`` hands over when asked.
public enum BodyPiece: Sendable, Equatable {
    /// More of the body. Empty bytes are allowed and send nothing.
    case bytes([UInt8])
    /// The body is complete: what was handed over goes out, then its proper end.
    case end
    /// The body cannot be completed (its data could not be read): the connection is closed
    /// without the body's end, so the client sees a cut download and not a short one that
    /// looks whole. (An HTTP/1.0 client, whose bodies end when the connection does, cannot
    /// tell the two apart.)
    case cut
}
