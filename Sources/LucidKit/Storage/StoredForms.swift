import LucidJSON
import LucidModel
import LucidWire

// How the device's file holds a change's request: JSON written and read by
// the wire module's code, so the file and the API never disagree on an action.

extension Change.Request {
    /// `{"action": …}`, `{"undo": expected}` or `{"redo": expected}`, `null` while unknown.
    var storedForm: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        switch self {
        case .action(let action): writer.key("action"); writer.value(action)
        case .undo(let expected): writer.key("undo"); if let expected { writer.int(expected) } else { writer.null() }
        case .redo(let expected): writer.key("redo"); if let expected { writer.int(expected) } else { writer.null() }
        }
        writer.endObject()
        return writer.takeBytes()
    }

    init(storedForm bytes: [UInt8]) throws(DeviceStoreError) {
        guard let json = try? JSONParser.parse(bytes), case .object(let members) = json, let (name, value) = members.first
        else { throw .corrupt("a queued change is not a stored request") }
        func expected() throws(DeviceStoreError) -> Int? {
            switch value {
            case .null: return nil
            case .number(let literal): if let version = Int(literal) { return version }
            default: break
            }
            throw .corrupt("a queued undo or redo has no version")
        }
        switch name {
        case "action":
            do throws(WireReadingError) { self = .action(try Action(wire: value)) } catch {
                throw .corrupt("a queued action: \(error)")
            }
        case "undo": self = .undo(expected: try expected())
        case "redo": self = .redo(expected: try expected())
        default: throw .corrupt("a queued change of unknown kind \(name)")
        }
    }
}

/// Why the device's file cannot be used.
public enum DeviceStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite failed (the disk is full, the file is locked too long, …).
    case database(String)
    /// The file holds something this build did not write.
    case corrupt(String)
    /// The session token could not be read or saved (see ``CredentialStore``).
    case credentials(String)

    public var description: String {
        switch self {
        case .database(let message): "the device's journal file failed: \(message)"
        case .corrupt(let message): "the device's journal file is damaged: \(message)"
        case .credentials(let message): "the session token could not be kept: \(message)"
        }
    }
}
