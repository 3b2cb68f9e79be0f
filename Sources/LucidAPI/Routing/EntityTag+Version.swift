import LucidHTTP

extension EntityTag {
    /// The journal version the tag names, if its opaque part is one written as Lucid writes
    /// versions (its `ETag`s are strong quoted versions, `"12"`): decimal digits without sign
    /// or leading zero (`"5"`, never `"+5"` or `"005"`), so a tag names a version exactly
    /// when it equals the `ETag` we send for it.
    var version: Int? {
        guard let first = opaque.first, opaque.allSatisfy({ (0x30...0x39).contains($0) }),
              first != 0x30 || opaque.count == 1
        else { return nil }
        return Int(String(decoding: opaque, as: UTF8.self))
    }
}
