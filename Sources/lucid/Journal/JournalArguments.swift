import Foundation
import LucidModel

/// A `lucid journal` command line: the words, and the options anywhere among them
/// (`add "Flying" --creature dragon --state DIR --json`).
struct JournalArguments {
    var words: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// What went wrong reading the command line: exit 64 with this message.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads `arguments`: `flags` take no value, `options` take one each time they appear.
    init(_ arguments: [String], flags: Set<String>, options: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                words.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name), inline == nil {
                self.flags.insert(name)
            } else if options.contains(name) {
                guard let value = inline ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("--\(name) needs a value")
                }
                if inline == nil { index += 1 }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The option's value, the last one if given more than once.
    func value(_ name: String) -> String? { values[name]?.last }

    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The `index`th word after the command's, or a usage error naming it.
    func word(_ index: Int, _ name: String) throws(UsageError) -> String {
        guard index < words.count else { throw UsageError("expected \(name)") }
        return words[index]
    }

    /// The option as a creature, `KIND[:COLOR]` (a unicorn without a color is yellow).
    func creature(_ name: String) throws(UsageError) -> Creature? {
        try value(name).map { (text) throws(UsageError) in try Self.creature(text) }
    }

    static func creature(_ text: String) throws(UsageError) -> Creature {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard let kind = parts.first.flatMap(Creature.Kind.init(rawValue:)) else {
            throw UsageError("a creature is one of \(Creature.Kind.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
        }
        let color: UnicornColor?
        if parts.count > 1 {
            guard let named = UnicornColor(rawValue: parts[1]) else {
                throw UsageError("a unicorn's color is one of \(UnicornColor.allCases.map(\.rawValue).joined(separator: ", ")), not \(parts[1])")
            }
            color = named
        } else {
            color = kind == .unicorn ? .yellow : nil
        }
        guard let creature = Creature(kind: kind, color: color) else { throw UsageError("only a unicorn has a color") }
        return creature
    }

    /// The `--effect` options as effects.
    func effects() throws(UsageError) -> Set<Effect>? {
        let names = all("effect")
        guard !names.isEmpty else { return nil }
        var effects: Set<Effect> = []
        for name in names {
            guard let effect = Effect(rawValue: name) else {
                throw UsageError("an effect is one of \(Effect.allCases.map(\.rawValue).joined(separator: ", ")), not \(name)")
            }
            effects.insert(effect)
        }
        return effects
    }

    /// The option as a whole number.
    func integer(_ name: String) throws(UsageError) -> Int? {
        try value(name).map { (text) throws(UsageError) in
            guard let number = Int(text) else { throw UsageError("--\(name) must be a whole number, not \(text)") }
            return number
        }
    }

    /// The option as `true` or `false`.
    func boolean(_ name: String) throws(UsageError) -> Bool? {
        try value(name).map { (text) throws(UsageError) in
            guard let value = ["true": true, "false": false][text] else { throw UsageError("--\(name) must be true or false") }
            return value
        }
    }
}
