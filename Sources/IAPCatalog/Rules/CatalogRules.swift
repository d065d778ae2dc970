import Diagnostics

/// The registry of catalog rules, in the order `iap rules` lists them: the load-time rules
/// (`Rules/Files/`), then the checks, family by family.
public enum CatalogRules {
    public static let all: [any CatalogRule] = [
        // Files: found while loading.
        LoadTimeRule(MalformedCatalogRule.self), LoadTimeRule(UnrecognizedCatalogRule.self), LoadTimeRule(InvalidMetadataRule.self),
        LoadTimeRule(UnknownMetadataKeyRule.self), LoadTimeRule(UnknownPriceCurrencyRule.self), LoadTimeRule(EmptyProductListRule.self),
        LoadTimeRule(DictRootedIDListRule.self), LoadTimeRule(UnresolvedBundleIDRule.self), LoadTimeRule(CommittedSecretRule.self),
        LoadTimeRule(LocalOfferKeyRule.self),
        // IDs.
        DuplicateIDRule(), CaseDuplicateIDRule(), InvalidIDCharactersRule(), IDTooLongRule(), WhitespaceInIDRule(),
        EmptyIDSegmentRule(), MissingBundlePrefixRule(), BundlePrefixConventionRule(), PlaceholderPrefixRule(), SimilarIDsRule(), RetiredIDRule(),
        // Metadata, classification, subscriptions and localizations.
        MissingMetadataRule(), OrphanMetadataRule(), KindConflictRule(), CatalogDriftRule(), KindContradictsIDRule(), PeriodContradictsNameRule(),
        ReferenceNameTooLongRule(), DuplicateReferenceNameRule(), DisplayNameTooLongRule(), DescriptionTooLongRule(),
        MissingLocalizationRule(), SubscriptionWithoutGroupRule(), UnknownSubscriptionPeriodRule(),
        FreeTrialWithPriceRule(), OfferNotCheaperRule(), TooManyProductsRule(),
        EmptyLocalizationRule(), PriceInLocalizationRule(), UntrimmedLocalizationRule(),
        UndeclaredKindRule(),
    ]

    public static func rule(_ id: String) -> (any CatalogRule)? { all.first { $0.description.id == id } }

    public static var descriptions: [RuleDescription] { all.map(\.description) }

    /// The rules whose findings mean a file could not be read.
    static let unreadableFileRules: Set<String> = [MalformedCatalogRule.id, UnrecognizedCatalogRule.id]
}

extension Catalog {
    /// The findings that say a file of the catalog could not be read as a catalog file at all
    /// (`malformed-catalog`, `unrecognized-catalog`): its products are missing from the catalog,
    /// so commands that use the products (`gen`, `list`) must not carry on as if it were whole.
    public var unreadableFileFindings: [Diagnostic] {
        loadDiagnostics.filter { CatalogRules.unreadableFileRules.contains($0.ruleID) }
    }
}
