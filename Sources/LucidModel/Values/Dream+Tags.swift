/// The rules of a dream's tags. A tag is one short line of the user's own words ("teeth
/// falling out"); a dream holds a set of them:
///
/// - each is trimmed of white space at both ends (`Character.isWhitespace`, line breaks
///   included), and must then be 1 to `tagLengthLimit` characters and at most
///   `tagByteLimit` bytes of UTF-8, with no control character (Unicode category Cc: tabs,
///   newlines, escapes, NUL) and no line or paragraph separator inside;
/// - two tags are the same tag when their keys (`tagKey(_:)`) are equal: case does not
///   matter, nor does how a character is composed ("é" as one code point or two);
/// - a dream keeps each tag in the spelling it was first given in, in the order given:
///   `["Shark", " teeth ", "shark"]` is kept as `["Shark", "teeth"]`. To change a tag's
///   casing, send the tags again with the new spelling;
/// - a dream holds at most `tagLimit` different tags.
extension Dream {
    /// The most tags one dream holds, duplicates counted once.
    public static let tagLimit = 20
    /// The longest tag, in characters (grapheme clusters), after trimming.
    public static let tagLengthLimit = 40
    /// The longest tag in bytes of UTF-8, after trimming. As for descriptions, characters
    /// alone bound nothing (a character may hold any number of combining marks); 4 bytes a
    /// character lets any 40 characters of one code point each through.
    public static let tagByteLimit = 160

    /// `tag` without the white space at its ends.
    public static func trimmedTag(_ tag: String) -> String {
        guard let first = tag.firstIndex(where: { !$0.isWhitespace }),
              let last = tag.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(tag[first...last])
    }

    /// What tags are compared by: the trimmed tag upper-cased, then lower-cased, with
    /// Unicode's full case mappings and no locale. That is a simple case fold: "Straße",
    /// "STRASSE" and "strasse" are one tag, as are "ΣΟΦΙΑ" and "σοφια". Swift's `String`
    /// compares by canonical equivalence, so a precomposed "é" and "e" + U+0301 are one too.
    /// (Not Unicode's full `toCasefold`; it differs from it only for a few characters.)
    public static func tagKey(_ tag: String) -> String {
        trimmedTag(tag).uppercased().lowercased()
    }

    /// The tags as a dream keeps them: each trimmed, and of tags with the same key only the
    /// first, in the order given. Assumes nothing of its input and never fails.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>(), kept: [String] = []
        for tag in tags {
            let trimmed = trimmedTag(tag)
            if seen.insert(trimmed.uppercased().lowercased()).inserted { kept.append(trimmed) }
        }
        return kept
    }

    /// Why `tag` cannot be a tag, as the detail of an error about it; `nil` if it can.
    public static func tagProblem(_ tag: String) -> String? {
        let trimmed = trimmedTag(tag)
        if trimmed.isEmpty { return "must not be empty or only white space" }
        if trimmed.unicodeScalars.contains(where: Self.breaksALine) {
            return "must not contain control characters or line breaks"
        }
        if trimmed.count > tagLengthLimit { return "must be at most \(tagLengthLimit) characters" }
        if trimmed.utf8.count > tagByteLimit { return "must be at most \(tagByteLimit) bytes of UTF-8" }
        return nil
    }

    /// The detail of the error about a list of more than `tagLimit` different tags.
    public static let tooManyTags = "must hold at most \(tagLimit) different tags"

    /// Whether `tags` holds more than `tagLimit` different tags.
    public static func tooMany(_ tags: [String]) -> Bool {
        guard tags.count > tagLimit else { return false }
        return Set(tags.lazy.map(tagKey)).count > tagLimit
    }

    /// The tag rules over a whole list, as errors with pointers relative to the dream:
    /// `/tags/3` for a bad tag, `/tags` for too many.
    static func validate(tags: [String]) -> [FieldError] {
        var errors = tags.enumerated().compactMap { position, tag in
            tagProblem(tag).map { FieldError(pointer: "/tags/\(position)", detail: $0) }
        }
        if tooMany(tags) { errors.append(FieldError(pointer: "/tags", detail: tooManyTags)) }
        return errors
    }

    /// A control character (Cc), or a line or paragraph separator: nothing a one-line label holds.
    private static func breaksALine(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
