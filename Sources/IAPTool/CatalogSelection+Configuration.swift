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
