public import Foundation

/// What one device's list screen is doing, as the sample app keeps it: one enum, so that
/// combinations that make no sense (editing while sharing, a selection while viewing)
/// cannot be written down. Saved on the server so that any launch, on that device, returns
/// to exactly the screen the user left.
public enum DeviceState: Hashable, Sendable {
    /// Browsing the list.
    case viewing
    /// Editing one dream.
    case editing(dreamID: UUID)
    /// Selecting dreams; selecting none is a state of its own (the selection is empty).
    case selecting(dreamIDs: [UUID])
    /// Sharing the dreams chosen.
    case sharing(dreamIDs: [UUID])
    /// Choosing a dream to duplicate.
    case duplicating

    /// The `mode` of the JSON form.
    public var mode: String {
        switch self {
        case .viewing: "viewing"
        case .editing: "editing"
        case .selecting: "selecting"
        case .sharing: "sharing"
        case .duplicating: "duplicating"
        }
    }

    /// The most dreams a selection or a share may name.
    public static let idLimit = 1_000

    /// The state as it can be shown over `model`, as the sample's `validateWithModel` does:
    /// dreams that no longer exist are dropped (the others keep their order, each once);
    /// editing a dream that is gone, or sharing nothing, falls back to viewing.
    public func validated(against model: Model) -> DeviceState {
        func existing(_ ids: [UUID]) -> [UUID] {
            var seen = Set<UUID>()
            return ids.filter { model.index(of: $0) != nil && seen.insert($0).inserted }
        }
        switch self {
        case .viewing, .duplicating:
            return self
        case .editing(let id):
            return model.index(of: id) == nil ? .viewing : self
        case .selecting(let ids):
            return .selecting(dreamIDs: existing(ids))
        case .sharing(let ids):
            let kept = existing(ids)
            return kept.isEmpty ? .viewing : .sharing(dreamIDs: kept)
        }
    }
}

/// The JSON form, as stored: `{"mode":"editing","dreamId":"…"}`,
/// `{"mode":"selecting","dreamIds":["…"]}`.
extension DeviceState: Codable {
    private enum CodingKeys: String, CodingKey { case mode, dreamId, dreamIds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .mode) {
        case "viewing": self = .viewing
        case "editing": self = .editing(dreamID: try container.decode(UUID.self, forKey: .dreamId))
        case "selecting": self = .selecting(dreamIDs: try container.decode([UUID].self, forKey: .dreamIds))
        case "sharing": self = .sharing(dreamIDs: try container.decode([UUID].self, forKey: .dreamIds))
        case "duplicating": self = .duplicating
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .mode, in: container, debugDescription: "unknown mode \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        switch self {
        case .viewing, .duplicating: break
        case .editing(let id): try container.encode(id, forKey: .dreamId)
        case .selecting(let ids), .sharing(let ids): try container.encode(ids, forKey: .dreamIds)
        }
    }
}
