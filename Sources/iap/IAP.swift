import ArgumentParser

@main
struct IAP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iap",
        abstract: "Validate, list and inspect in-app purchase catalogs (product-ID plists, metadata plists, .storekit files).",
        discussion: """
        With no PATH, commands work on ./catalogs.
        Exit status: 0 no errors; 1 findings at error severity (warnings too with --strict), or a malformed \
        catalog file; 2 the check could not run (a missing path, an unreadable file); 64 usage error.
        """,
        version: "0.1.0",
        subcommands: [Validate.self, List.self, Rules.self, PlistCommand.self]
    )
}
