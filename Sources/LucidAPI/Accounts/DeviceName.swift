import LucidJSON
import LucidModel
import LucidWire

/// The name a session goes by in `GET /v1/sessions`: the `deviceName` a client gave at
/// sign-in or registration, or else one derived from its `User-Agent` ("Firefox on Linux",
/// "curl 8.5"): short, readable, never the raw header.
enum DeviceName {
    /// A given name's length in Unicode code points, as JSON Schema counts them.
    static let length = 1...100
    /// The name of a session whose client told nothing usable about itself.
    static let unknown = "Unknown device"
    /// How much of a `User-Agent` is read: enough for any real one.
    static let userAgentBytes = 512

    /// What is wrong with `name` as a `deviceName`, if anything.
    static func error(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        if !length.contains(scalars.count) { return "must be 1 to 100 Unicode code points" }
        if scalars.contains(where: isControl) { return "must not contain control characters" }
        return nil
    }

    /// Control characters (C0, DEL, C1), the line and paragraph separators, and the
    /// bidirectional controls, which could make a listed name read as another.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// A short name for the client that sent `userAgent`: the browser and its system for a
    /// browser ("Safari on iPhone"), else its first product and version ("curl 8.5"), with
    /// the system when it says one ("okhttp 4.12 on Android"). At most 70 printable ASCII
    /// characters, whatever the header holds.
    static func derived(fromUserAgent userAgent: String?) -> String {
        guard let userAgent else { return unknown }
        let text = String(decoding: userAgent.utf8.prefix(userAgentBytes), as: UTF8.self)
        let (products, comments) = parse(text)
        let system = comments.lazy.compactMap(system).first
        let name: String
        if let browser = browser(products), products.first?.name == "Mozilla" {
            name = browser
        } else if let first = products.first(where: { !$0.name.isEmpty }) {
            name = first.version.isEmpty ? first.name : "\(first.name) \(first.version)"
        } else {
            return unknown
        }
        return system.map { "\(name) on \($0)" } ?? name
    }

    /// A product token: `name/version`, the name cut to safe characters (at most 40), the
    /// version to its major and minor numbers.
    struct Product: Equatable {
        var name: String
        var version: String
    }

    /// The product tokens and the comments (in parentheses) of a `User-Agent`.
    static func parse(_ text: String) -> (products: [Product], comments: [String]) {
        var products: [Product] = []
        var comments: [String] = []
        var rest = Substring(text)
        while let first = rest.first {
            if first == "(" {
                let end = rest.firstIndex(of: ")") ?? rest.endIndex
                comments.append(String(rest[rest.index(after: rest.startIndex)..<end]))
                rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
            } else if first == " " || first == "\t" {
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex { $0 == " " || $0 == "\t" || $0 == "(" } ?? rest.endIndex
                let token = rest[..<end]
                rest = rest[end...]
                let parts = token.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0].filter(isNameCharacter).prefix(40))
                products.append(Product(name: name, version: parts.count > 1 ? majorMinor(parts[1]) : ""))
            }
        }
        return (products, comments)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii)
            || "._+-".utf8.contains(ascii)
    }

    /// "8.5.0" → "8.5", "17" → "17", "1.0b3" → "1.0"; "" when it starts with no digit.
    static func majorMinor(_ version: Substring) -> String {
        let numeric = version.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let parts = Array(numeric.split(separator: ".", omittingEmptySubsequences: false).prefix(2))
        guard let major = parts.first, !major.isEmpty else { return "" }
        let kept = parts.count == 2 && !parts[1].isEmpty ? "\(major).\(parts[1])" : String(major)
        return String(kept.prefix(16))
    }

    /// The browser that a `Mozilla/…` agent's products name, most specific first: Edge,
    /// Opera and the rest send Chrome's and Safari's tokens too.
    static func browser(_ products: [Product]) -> String? {
        let names = Set(products.map(\.name))
        let browsers: [(token: String, name: String)] = [
            ("Edg", "Edge"), ("EdgA", "Edge"), ("EdgiOS", "Edge"), ("Edge", "Edge"), ("OPR", "Opera"),
            ("SamsungBrowser", "Samsung Internet"), ("FxiOS", "Firefox"), ("Firefox", "Firefox"), ("CriOS", "Chrome"),
            ("Chromium", "Chromium"), ("Chrome", "Chrome"),
        ]
        if let found = browsers.first(where: { names.contains($0.token) }) { return found.name }
        if names.contains("Safari") && names.contains("Version") { return "Safari" }
        return names.contains("Safari") || names.contains("AppleWebKit") || names.contains("Gecko") ? "Web browser" : nil
    }

    /// The operating system a comment names, if any.
    static func system(_ comment: String) -> String? {
        let systems: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"), ("CrOS", "ChromeOS"),
            ("Macintosh", "macOS"), ("Mac OS X", "macOS"), ("Linux", "Linux"),
        ]
        return systems.first { comment.contains($0.token) }?.name
    }
}

extension FieldReader {
    /// A `deviceName`: 1 to 100 code points, no control characters.
    mutating func deviceName(_ value: JSONValue, at pointer: String) -> String? {
        guard let name = string(value, at: pointer) else { return nil }
        if let error = DeviceName.error(name) {
            fail(pointer, error)
            return nil
        }
        return name
    }
}
