// ProductID is generated at build time by IAPCatalog's IAPGenPlugin from IAP_ProductIDs.plist
// and Metadata.plist in this folder; there is no ProductID.swift in the repository.

let requested: Set<String> = [ProductID.coins100, ProductID.pro, ProductID.clubMonthly]
print("products: \(ProductID.all.count)")
print("consumables: \(ProductID.consumables.sorted())")
print("club: \(ProductID.Groups.Club.all)")
print("all requested: \(requested == Set(ProductID.all))")
