import Foundation
import PackagePlugin

/// Compiles files of the repository into the targets that need them, so the binary
/// carries its schema and its API description and never reads the source tree at run
/// time: `migrations/*.sql` into LucidSQLite, `migrations/postgresql/*.sql` into LucidPostgres,
/// `openapi.yaml` into LucidAPI.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        /// The `.sql` files of `folder`, in name order.
        func migrations(in folder: URL) throws -> [URL] {
            try FileManager.default
                .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        // A folder is an input too, so adding a migration to it rebuilds the target.
        let (kind, files, folders): (String, [URL], [URL])
        switch target.name {
        case "LucidSQLite":
            let folder = root.appending(path: "migrations")
            (kind, files, folders) = ("migrations", try migrations(in: folder), [folder])
        case "LucidPostgres":
            let folder = root.appending(path: "migrations/postgresql")
            (kind, files, folders) = ("postgres-migrations", try migrations(in: folder), [folder])
        case "LucidAPI":
            (kind, files, folders) = ("openapi", [root.appending(path: "openapi.yaml")], [])
        default:
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "Embedded-\(kind).swift")
        return [
            .buildCommand(
                displayName: "Embedding \(kind) into \(target.name)",
                executable: try context.tool(named: "ResourceEmbedder").url,
                arguments: [output.path, kind] + files.map(\.path),
                inputFiles: files + folders,
                outputFiles: [output]
            )
        ]
    }
}
