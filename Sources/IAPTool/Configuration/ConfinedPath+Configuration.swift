import Foundation
import Support

/// The paths `iap.yml` names for iap to write — `reports`, `generate[].output` — and its
/// `baseline` stay inside the folder holding the file: a pull request can change `iap.yml`, and
/// must not be able to aim a CI job's writes at the rest of the machine. A path leaves the folder
/// when it is absolute, when `..` climbs out of it, or when a link on the way (a folder, or the
/// file itself) leads out; a path into `.git` is refused too (hooks live there). The command line
/// is not limited: `--report`, `--baseline` and `-o` may name any path.
extension ConfinedPath {
    /// The folder of the configuration file at `configPath`, resolved; nil when it cannot be.
    init?(configPath: String) {
        let folder = (configPath as NSString).deletingLastPathComponent
        guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
        defer { free(real) }
        let root = String(cString: real)
        self.init(root: root, name: "the folder of iap.yml", start: root)
    }

    /// The repository holding the configuration file at `configPath` (the nearest folder at or
    /// above it with `.git`): what `iap.yml` may name to read. Nil outside a repository, where no
    /// pull request writes the file.
    init?(repositoryOf configPath: String) {
        guard let folder = ConfinedPath(configPath: configPath)?.root, let repository = FilePaths.repositoryRoot(of: folder) else { return nil }
        self.init(root: repository, name: "the repository", start: folder)
    }
}
