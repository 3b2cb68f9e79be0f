import LucidAPI

/// The command line of `lucid backup` and `lucid check`: the database, as `serve` finds it
/// (`--database`, then `LUCID_DATABASE`, then `data/lucid.sqlite`), and the operands after
/// the options.
struct MaintenanceArguments: Equatable {
    var database: String
    var operands: [String] = []

    /// Reads `arguments` (after the command's name) over `environment`.
    init(_ arguments: [String], environment: [String: String]) throws(Configuration.Invalid) {
        // serve's own reading of the variable and its default; the other variables are serve's only.
        database = try Configuration(arguments: [], environment: environment.filter { $0.key == "LUCID_DATABASE" }).database
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                operands += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            let (flag, inline) = Configuration.split(argument)
            guard flag == "--database" else {
                throw Configuration.Invalid(description: "unknown option \"\(LogText.escaped(argument))\"; see lucid --help")
            }
            guard let value = inline ?? rest.popFirst() else { throw Configuration.Invalid(description: "--database needs a value") }
            guard !value.isEmpty else { throw Configuration.Invalid(description: "--database \"\" is not a valid value") }
            database = value
        }
    }
}
