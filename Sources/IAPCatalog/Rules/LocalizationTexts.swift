import Diagnostics

extension Localization {
    /// The display name and the description, each with what it is called in a message.
    var texts: [(field: String, text: String?)] { [("display name", displayName), ("description", description)] }
}

extension CatalogRule {
    /// One finding per display name or description that `problem` finds something wrong with:
    /// `problem` says what ("shows a price ('$0.99')") and how to fix it.
    func textFindings(_ catalog: Catalog, into found: inout FindingCollector, _ problem: (String) -> (String, SuggestedFix)?) {
        for product in catalog.describedProducts {
            for l in product.metadata.localizations {
                for (field, text) in l.texts {
                    guard let text, let (what, fix) = problem(text) else { continue }
                    found.add(at: l.location) { finding("the \(field) of \(Quote.bounded(product.id)) (\(l.locale)) \(what)", at: l.location, fix: fix) }
                }
            }
        }
    }
}

extension CatalogRule {
    /// One finding per localization whose text (display name or description) is over `limit`.
    func lengthFindings(_ catalog: Catalog, _ field: KeyPath<Localization, String?>, limit: Int, what: String,
                        into found: inout FindingCollector) {
        for product in catalog.describedProducts {
            for l in product.metadata.localizations {
                guard let text = l[keyPath: field], text.count > limit else { continue }
                found.add(at: l.location) {
                    finding("\(what) of \(Quote.bounded(product.id)) (\(l.locale)) is \(text.count) characters; the limit is \(limit)",
                            at: l.location)
                }
            }
        }
    }
}
