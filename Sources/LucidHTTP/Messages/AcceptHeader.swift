import Foundation

/// The media types a client accepts, from its `Accept` header (RFC 9110 12.5.1): each range
/// with its weight, so that a route with several representations can choose one.
package struct AcceptHeader: Equatable, Sendable {
    /// One media range: `type/subtype`, `type/*` or `*/*`, lower-cased, with its `q`.
    struct Range: Equatable, Sendable {
        var type: String
        var subtype: String
        var quality: Double
    }

    /// The ranges in the order given; none when there is no header, which accepts anything.
    let ranges: [Range]

    /// The ranges of `header`; `nil` accepts everything, as no header does. An element that
    /// is not a media range is left out; a `q` that is not a number from 0 to 1 counts as 1.
    package init(_ header: String?) {
        guard let header else {
            ranges = [Range(type: "*", subtype: "*", quality: 1)]
            return
        }
        ranges = header.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let names = parts.first?.split(separator: "/", omittingEmptySubsequences: false) ?? []
            guard names.count == 2, !names[0].isEmpty, !names[1].isEmpty, names[0] != "*" || names[1] == "*" else {
                return nil
            }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                if let value = Double(parameter.dropFirst(2)), (0...1).contains(value) { quality = value }
            }
            return Range(type: String(names[0]), subtype: String(names[1]), quality: quality)
        }
    }

    /// The weight of `mediaType` (`type/subtype`): that of the most specific range that
    /// matches it, 0 if none does. A header with no valid range at all accepts anything.
    package func quality(of mediaType: String) -> Double {
        guard !ranges.isEmpty else { return 1 }
        let names = mediaType.lowercased().split(separator: "/")
        guard names.count == 2 else { return 0 }
        var best: (specificity: Int, quality: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == names[0] && range.subtype == names[1] {
                specificity = 2
            } else if range.type == names[0] && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" {
                specificity = 0
            } else {
                continue
            }
            if best.map({ specificity > $0.specificity }) ?? true { best = (specificity, range.quality) }
        }
        return best?.quality ?? 0
    }

    /// Of `offered` media types, in order of preference, the one the client weighs highest
    /// (the earlier one on a tie); `nil` if it accepts none of them.
    package func choose(_ offered: [String]) -> String? {
        var chosen: (mediaType: String, quality: Double)?
        for mediaType in offered {
            let quality = quality(of: mediaType)
            if quality > 0, quality > chosen?.quality ?? 0 { chosen = (mediaType, quality) }
        }
        return chosen?.mediaType
    }
}
