import Diagnostics

/// Catalog examples: product lists and metadata plists.
extension RuleExample {
    /// An `IAP_ProductIDs.plist` holding these IDs; `↓` before an ID marks its `<string>`.
    public static func ids(_ ids: String..., bundleID: String? = nil, retired: [String] = []) -> RuleExample {
        RuleExample([ExampleFile("IAP_ProductIDs.plist", idList(ids))], bundleID: bundleID, retired: retired)
    }

    /// A metadata plist whose `products` dict holds `body` (keys and dicts, plist XML).
    public static func metadata(_ body: String, bundleID: String? = nil, requiredLocales: [String] = []) -> RuleExample {
        RuleExample([ExampleFile("Metadata.plist", metadataPlist(body))], bundleID: bundleID, requiredLocales: requiredLocales)
    }

    public static func idList(_ ids: [String]) -> String {
        let items = ids.map { id in
            id.hasPrefix("↓") ? "\t↓<string>\(id.dropFirst())</string>" : "\t<string>\(id)</string>"
        }
        return plist("<array>\n" + items.joined(separator: "\n") + "\n</array>")
    }

    public static func metadataPlist(_ body: String) -> String {
        plist("<dict>\n\t<key>IAPCatalogMetadata</key>\n\t<integer>1</integer>\n\t<key>products</key>\n\t<dict>\n\(body)\n\t</dict>\n</dict>")
    }

    public static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }
}

extension RuleExample {
    /// One product's entry in a metadata plist's `products` dict.
    public static func product(_ id: String, _ fields: String...) -> String {
        "\t\t<key>\(id)</key>\n\t\t<dict>\n" + fields.map { "\t\t\t" + $0 }.joined(separator: "\n") + "\n\t\t</dict>"
    }
}

/// `<key>kind</key><string>KIND</string>`, a product's declared kind in a metadata plist.
func kindField(_ kind: String) -> String { "<key>kind</key><string>\(kind)</string>" }

/// Small `.storekit` files for rule examples.
enum StoreKitExample {
    /// A configuration with one product and an offer-signing key with this key ID; `marked`
    /// puts `↓` on the key's line.
    static func keyPair(id: String, marked: Bool = false) -> String {
        """
        {
          "products" : [
            {
              "productID" : "com.acme.app.pro",
              "referenceName" : "Pro",
              "type" : "NonConsumable"
            }
          ],
          "subscriptionOffersKeyPair" : {
            "id" : "\(id)",
        \(marked ? "↓" : "")    "privateKey" : "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg-example"
          },
          "version" : { "major" : 4, "minor" : 0 }
        }
        """
    }
}

/// A `.storekit` file with one product and one `en_US` localization; `marked` puts `↓` on the product.
func storeKitLocalization(_ id: String, displayName: String, description: String, marked: Bool = true) -> RuleExample {
    RuleExample([ExampleFile("Products.storekit", """
    {
      "products" : [
        {
          \(marked ? "↓" : "")"productID" : "\(id)",
          "localizations" : [
            {
              "description" : "\(description)",
              "displayName" : "\(displayName)",
              "locale" : "en_US"
            }
          ],
          "referenceName" : "Coins",
          "type" : "Consumable"
        }
      ],
      "version" : { "major" : 4, "minor" : 0 }
    }
    """)])
}
