// ProductID is generated at build time by IAPCatalog's IAPGenPlugin from IAP_ProductIDs.plist
// and Metadata.plist in this folder; there is no ProductID.swift in the repository. iap-gen.json
// also asks for StoreDemo.storekit, written from the same catalog and bundled as a resource: the
// file an SKTestSession or an Xcode scheme would load.
import Foundation

let requested: Set<String> = [ProductID.coins100, ProductID.pro, ProductID.clubMonthly]
print("products: \(ProductID.all.count)")
print("consumables: \(ProductID.consumables.sorted())")
print("club: \(ProductID.Groups.Club.all)")
print("all requested: \(requested == Set(ProductID.all))")

let storekit = Bundle.module.url(forResource: "StoreDemo", withExtension: "storekit")
let configuration = storekit.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
print("StoreDemo.storekit products: \(configuration.components(separatedBy: "\"productID\"").count - 1)")
