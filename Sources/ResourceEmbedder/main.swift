import Foundation

// Writes a Swift file that holds files of the repository as string literals.
// Usage: ResourceEmbedder OUTPUT migrations FILE...   → `Migration.embedded`, in the order given
//        ResourceEmbedder OUTPUT postgres-migrations FILE...   → `Migration.postgres`, likewise
//        ResourceEmbedder OUTPUT openapi FILE         → `EmbeddedOpenAPI.yaml`
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, ["migrations", "postgres-migrations", "openapi"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: ResourceEmbedder OUTPUT migrations|postgres-migrations|openapi FILE...\n".utf8))
    exit(2)
}
let (output, kind, paths) = (arguments[0], arguments[1], arguments.dropFirst(2))

/// A Swift string literal holding `text` exactly: escapes every scalar that is not
/// plain printable ASCII, so no file content can end the literal early.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case " "..."~": result.unicodeScalars.append(scalar)
        default: result += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return result + "\""
}

var source = "// Generated at build time by ResourceEmbedder. Do not edit.\n\n"
switch kind {
case "migrations", "postgres-migrations":
    source += "package import LucidMigrations\n\nextension Migration {\n"
    if kind == "migrations" {
        source += "    /// The migrations of the top-level `migrations/` folder, in order.\n"
        source += "    package static let embedded: [Migration] = [\n"
    } else {
        source += "    /// The migrations of `migrations/postgresql/`, in order.\n"
        source += "    package static let postgres: [Migration] = [\n"
    }
    for path in paths {
        let url = URL(fileURLWithPath: path)
        let sql = try String(contentsOf: url, encoding: .utf8)
        source += "        Migration(name: \(literal(url.deletingPathExtension().lastPathComponent)), sql: \(literal(sql))),\n"
    }
    source += "    ]\n}\n"
default:
    let yaml = try paths.first.map { try String(contentsOf: URL(fileURLWithPath: $0), encoding: .utf8) } ?? ""
    source += "/// The repository's openapi.yaml, as served at GET /openapi.yaml.\n"
    source += "enum EmbeddedOpenAPI {\n    static let yaml = \(literal(yaml))\n}\n"
}
try source.write(toFile: output, atomically: true, encoding: .utf8)
