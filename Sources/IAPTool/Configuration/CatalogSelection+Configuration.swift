import IAPCatalog

/// `CatalogSelection` from the command line and `iap.yml`: the two ways commands choose catalogs.
extension CatalogSelection {
    /// The catalogs of the app a command checks (`validate`, `list`, `report`, `lint`, `check`):
    /// the paths given, else the catalogs `iap.yml` names, else the default; `--bundle-id` (`bundleID`),
    /// else `iap.yml`'s, else each catalog's own.
    public init(_ given: [String], configuration: Configuration, bundleID: String? = nil) {
        self.init(given: given, configured: configuration.path == nil ? nil : configuration.catalogs, bundleID: bundleID,
                  configuredBundleID: configuration.bundleID, configuredBundleIDSource: configuration.bundleIDSource)
    }

    /// The catalog a generator reads (`gen`, `storekit`, `generate:` entries): the same paths,
    /// and the bundle ID of the catalog's own files only, since a generated file holds what those
    /// files say (a `.storekit` file names no app, and says so when a metadata plist's bundle ID is dropped).
    public static func generating(_ given: [String], configuration: Configuration) -> CatalogSelection {
        CatalogSelection(given: given, configured: configuration.path == nil ? nil : configuration.catalogs)
    }
}

extension CatalogSelection {
    /// The catalogs, for a command that needs at least one: with `verbose`, the files the walk
    /// passed over are said on `outcome`'s stderr first; none is a failure that says where it looked.
    func loadRequired(verbose: Bool, into outcome: inout CommandOutcome) throws(ToolFailure) -> Loaded {
        let loaded = try load()
        if verbose { outcome.stderr += PassedOverFile.lines(loaded.passedOver) }
        _ = try loaded.requireCatalogs(verbose: verbose)
        return loaded
    }
}

extension PassedOverFile {
    /// `--verbose`'s lines: "iap: passed over PATH: REASON".
    static func lines(_ files: [PassedOverFile]) -> String {
        files.map { "iap: passed over \($0.path): \($0.reason)\n" }.joined()
    }
}
