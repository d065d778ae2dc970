import Diagnostics

extension Localization {
    /// The display name and the description, each with what it is called in a message.
    var texts: [(field: String, text: String?)] { [("display name", displayName), ("description", description)] }
}

extension CatalogRule {
    /// One finding per display name or description that `problem` finds something wrong with:
    /// `problem` says what ("shows a price ('$0.99')") and how to fix it.
    func textFindings(_ catalog: Catalog, _ problem: (String) -> (String, SuggestedFix)?) -> [Diagnostic] {
        catalog.describedProducts.flatMap { product in
            product.metadata.localizations.flatMap { l in
                l.texts.compactMap { field, text -> Diagnostic? in
                    guard let text, let (what, fix) = problem(text) else { return nil }
                    return finding("the \(field) of \(Quote.bounded(product.id)) (\(l.locale)) \(what)", at: l.location, fix: fix)
                }
            }
        }
    }
}

extension CatalogRule {
    /// One finding per localization whose text (display name or description) is over `limit`.
    func lengthFindings(_ catalog: Catalog, _ field: KeyPath<Localization, String?>, limit: Int, what: String) -> [Diagnostic] {
        catalog.describedProducts.flatMap { product in
            product.metadata.localizations.compactMap { l -> Diagnostic? in
                guard let text = l[keyPath: field], text.count > limit else { return nil }
                return finding("\(what) of \(Quote.bounded(product.id)) (\(l.locale)) is \(text.count) characters; the limit is \(limit)",
                               at: l.location)
            }
        }
    }
}
