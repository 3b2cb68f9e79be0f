import Foundation

// Writes a Swift file declaring `Migration.embedded`: every SQL file given, in the
// order given, as (name, sql). Usage: MigrationEmbedder OUTPUT FILE...
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: MigrationEmbedder OUTPUT FILE...\n".utf8))
    exit(2)
}

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

var source = "// Generated from migrations/ by MigrationEmbedder at build time. Do not edit.\n\n"
source += "extension Migration {\n    /// The migrations of the top-level `migrations/` folder, in order.\n"
source += "    static let embedded: [Migration] = [\n"
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    let name = url.deletingPathExtension().lastPathComponent
    let sql = try String(contentsOf: url, encoding: .utf8)
    source += "        Migration(name: \(literal(name)), sql: \(literal(sql))),\n"
}
source += "    ]\n}\n"
try source.write(toFile: output, atomically: true, encoding: .utf8)
