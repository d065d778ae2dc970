import Foundation
import IAPCatalog
import ProductNaming
import PropertyList
import Stencil
import Support

/// Renders a catalog through a Stencil template, so a team can emit Objective-C, Kotlin for an
/// Android twin, JSON or docs. The context is documented in docs/commands.md ("Custom templates").
public struct TemplateRenderer: Sendable {
    public var options: GenerationOptions

    public init(options: GenerationOptions = GenerationOptions()) {
        self.options = options
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The values a template sees.
    public func context(_ catalog: Catalog, sources: [String]) throws(GenerationError) -> [String: Any] {
        let products = catalog.products
        let names = try CodeGenerator(options: options).names(for: products)
        var groupOrder: [String] = []
        var groupMembers: [String: [(String, String)]] = [:]
        let productValues: [[String: Any]] = zip(products, names).map { product, name in
            if let group = product.metadata.subscriptionGroup?.value {
                if groupMembers[group] == nil { groupOrder.append(group) }
                groupMembers[group, default: []].append((name, product.id))
            }
            return [
                "id": product.id,
                "identifier": name,
                "kind": product.kind?.rawValue ?? "",
                "kindName": product.kind?.displayName ?? "unknown",
                "declared": product.kindReason.isDeclared,
                "kindReason": product.kindReason.description,
                "referenceName": product.metadata.referenceName?.value ?? "",
                "displayName": product.displayName ?? "",
                "localizations": product.metadata.localizations.map {
                    ["locale": $0.locale, "displayName": $0.displayName ?? "", "description": $0.description ?? ""]
                },
                "price": product.metadata.price.map { $0.value.amountText } ?? "",
                "currency": product.metadata.price?.value.currency ?? "",
                "period": product.metadata.subscriptionPeriod.map { $0.value.description } ?? "",
                "group": product.metadata.subscriptionGroup?.value ?? "",
            ]
        }
        let groups: [[String: Any]] = groupOrder.map { group in
            ["name": group, "identifier": SwiftIdentifier.make(from: group, upper: true, fallback: "Group"),
             "products": groupMembers[group]!.map(\.0), "ids": groupMembers[group]!.map(\.1)]
        }
        return ["products": productValues, "groups": groups, "sources": sources,
                "typeName": options.typeName, "access": options.access.rawValue]
    }

    /// The rendered text; errors name the template and what Stencil found wrong.
    public func render(templateAt path: String, catalog: Catalog, sources: [String]) throws -> String {
        let template: String
        switch FileContents.text(path) {
        case .success(let text): template = text
        case .failure(let failure): throw Failure(description: "cannot read template '\(path)': \(failure.reason)")
        }
        let environment = Environment(extensions: [Self.filters])
        do {
            return try environment.renderTemplate(string: template, context: try context(catalog, sources: sources))
        } catch let error as GenerationError {
            throw error
        } catch {
            throw Failure(description: "template '\(path)': \(error)")
        }
    }

    /// Filters for emitting other languages: string literals escaped for each, and name cases.
    static var filters: Extension {
        let ext = Extension()
        ext.registerFilter("swiftString") { value in SwiftString.literal(stringify(value)) }
        ext.registerFilter("cString") { value in cLiteral(stringify(value), kotlin: false) }
        ext.registerFilter("kotlinString") { value in cLiteral(stringify(value), kotlin: true) }
        ext.registerFilter("constantCase") { value in
            SwiftIdentifier.bare(SwiftIdentifier.make(from: stringify(value))).reduce(into: "") { out, ch in
                if ch.isUppercase, !out.isEmpty { out += "_" }
                out += ch.uppercased()
            }
        }
        ext.registerFilter("upperFirst") { value in
            let text = SwiftIdentifier.bare(stringify(value))
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        return ext
    }

    static func stringify(_ value: Any?) -> String {
        switch value {
        case let s as String: s
        case nil: ""
        case let other?: "\(other)"
        }
    }

    /// A double-quoted C, Objective-C or Kotlin literal: `\`, `"` and control characters escaped
    /// (octal in C, where `\u` cannot name a control character; `\u` in Kotlin, which also needs
    /// `$` escaped because it starts a template).
    static func cLiteral(_ text: String, kotlin: Bool) -> String {
        SwiftString.quoted(text) { scalar in
            if kotlin && scalar == "$" { return "\\$" }
            guard scalar.value < 0x20 || scalar.value == 0x7F else { return nil }
            return kotlin ? String(format: "\\u%04x", scalar.value) : String(format: "\\%03o", scalar.value)
        }
    }
}
