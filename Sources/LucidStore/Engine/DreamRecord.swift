import Foundation
package import LucidModel

/// A dream revision as the columns of `dream_revisions` hold it, with its place in the order.
package struct DreamRecord: Sendable {
    package var dream: Dream
    package var orderKey: String

    package init(dream: Dream, orderKey: String) {
        self.dream = dream
        self.orderKey = orderKey
    }
}

extension Creature {
    /// The text a creature is stored as: its kind, and a unicorn's color after a hyphen.
    package var storageName: String {
        color.map { "\(kind.rawValue)-\($0.rawValue)" } ?? kind.rawValue
    }

    package init?(storageName: String) {
        let parts = storageName.split(separator: "-", maxSplits: 1).map(String.init)
        guard let kind = Kind(rawValue: parts[0]) else { return nil }
        self.init(kind: kind, color: parts.count == 2 ? UnicornColor(rawValue: parts[1]) : nil)
    }
}
