import Foundation
import PackagePlugin

/// Turns the top-level `migrations/` folder into Swift source compiled into the target,
/// so the binary carries its schema and never reads the source tree at run time.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "migrations")
        let files = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: [folder] + files,
                outputFiles: [output]
            )
        ]
    }
}
