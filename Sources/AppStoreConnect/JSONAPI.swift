import Diagnostics
import Foundation

// JSON:API documents as App Store Connect answers them, as far as the pull reads them: every
// resource's `type` checked against what the operation returns, `included` resources found by
// type and ID (never by ID alone), and every value read checked where it is used (`ASCValue`).

/// The attributes of one kind of resource, and the `type` its resources have.
protocol ResourceAttributes: Decodable, Sendable {
    static var type: String { get }
}

/// Decodes a body the client has already found to be whole JSON; a shape that is not the
/// operation's says where (`data[3].attributes.groupLevel has an unexpected type`).
func decodeDocument<T: Decodable>(_ body: Data, _ operation: APIPath) throws(ASCError) -> T {
    do {
        return try JSONDecoder().decode(T.self, from: body)
    } catch let error as DecodingError {
        func at(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        let why: String = switch error {
        case .dataCorrupted(let context) where !context.codingPath.isEmpty: "\(at(context.codingPath)) cannot be read"
        case .dataCorrupted: "the body is not a JSON:API document (\(body.count) bytes)"
        case .keyNotFound(let key, let context): "\(at(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "\(at(context.codingPath)) has an unexpected type"
        @unknown default: "unexpected JSON"
        }
        throw .invalidResponse(operation.encoded, why)
    } catch {
        throw .invalidResponse(operation.encoded, "unexpected JSON")
    }
}

struct Resource<Attributes: Decodable & Sendable>: Decodable, Sendable {
    var type: String
    var id: String
    var attributes: Attributes?
    var relationships: [String: Relationship]?
}

struct Linkage: Decodable, Sendable, Hashable {
    var type: String
    var id: String
}

/// A relationship as an answer gives it: linkage (`data`: one, many, or null) only when the
/// request included it; otherwise links alone, which say nothing of what is there.
struct Relationship: Decodable, Sendable {
    enum Data: Sendable {
        case absent
        case none
        case one(Linkage)
        case many([Linkage])
    }
    var data: Data
    var total: Int?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.data) {
            data = .absent
        } else if try container.decodeNil(forKey: .data) {
            data = .none
        } else if let many = try? container.decode([Linkage].self, forKey: .data) {
            data = .many(many)
        } else {
            data = .one(try container.decode(Linkage.self, forKey: .data))
        }
        total = (try? container.decodeIfPresent(Meta.self, forKey: .meta))?.paging?.total
    }

    private struct Meta: Decodable {
        struct Paging: Decodable { var total: Int? }
        var paging: Paging?
    }

    enum CodingKeys: String, CodingKey { case data, meta }

    var one: Linkage? {
        if case .one(let linkage) = data { return linkage }
        return nil
    }
}

struct Links: Decodable, Sendable {
    var next: String?
}

/// The resources of `included`, each of any type, found by type and ID.
struct Included: Decodable, Sendable {
    private var byKey: [Linkage: Resource<IncludedAttributes>] = [:]

    init() {}

    init(from decoder: Decoder) throws {
        var items = try decoder.unkeyedContainer()
        while !items.isAtEnd {
            // A resource of a kind this reader reads must have its shape; one of another kind
            // (App Store Connect adds kinds) is passed over whatever its shape.
            let kind = try items.superDecoder()
            let identity = try Linkage(from: kind)
            guard Self.read.contains(identity.type) else { continue }
            let item = try Resource<IncludedAttributes>(from: kind)
            if byKey[identity] == nil { byKey[identity] = item }
        }
    }

    /// The kinds of included resource the pull reads.
    static let read: Set<String> = [
        OfPurchases.type, OfSubscriptions.type, "inAppPurchasePricePoints",
        "subscriptionPricePoints", "territories", "inAppPurchasePriceSchedules",
        Availabilities.ofPurchases, Availabilities.ofSubscriptions, "subscriptionGroupLocalizations",
        PromotionalOfferAttributes.type, CustomCodeAttributes.type,
    ]

    subscript(_ linkage: Linkage?) -> Resource<IncludedAttributes>? {
        linkage.flatMap { byKey[$0] }
    }

    subscript(type: String, id: String) -> Resource<IncludedAttributes>? {
        byKey[Linkage(type: type, id: id)]
    }
}

/// One page of a list: its resources, all of the operation's type.
struct Page<Attributes: ResourceAttributes>: Decodable, Sendable {
    var data: [Resource<Attributes>]
    var included: Included
    var links: Links?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try container.decode([Resource<Attributes>].self, forKey: .data)
        links = try container.decodeIfPresent(Links.self, forKey: .links)
        included = (try? container.decodeIfPresent(Included.self, forKey: .included)) ?? Included()
    }

    enum CodingKeys: String, CodingKey { case data, included, links }

    /// The page decoded and its resources' types checked.
    static func read(_ body: Foundation.Data, _ operation: APIPath) throws(ASCError) -> Page {
        let page: Page = try decodeDocument(body, operation)
        for (index, resource) in page.data.enumerated() where resource.type != Attributes.type {
            throw .invalidResponse(operation.encoded, "data[\(index)] is of type \(Quote.escaped(resource.type)), not '\(Attributes.type)'")
        }
        return page
    }

    /// The next page's URL; a link that is not a URL is an error, not the end of the list.
    func next(_ operation: APIPath) throws(ASCError) -> URL? {
        guard let text = links?.next else { return nil }
        guard text.utf8.count <= 4096, let url = URL(string: text) else {
            throw .invalidResponse(operation.encoded, "links.next is not a URL: \(Quote.escaped(text))")
        }
        return url
    }
}

/// One resource.
struct Single<Attributes: ResourceAttributes>: Decodable, Sendable {
    var data: Resource<Attributes>

    static func read(_ body: Data, _ operation: APIPath) throws(ASCError) -> Single {
        let single: Single = try decodeDocument(body, operation)
        guard single.data.type == Attributes.type else {
            throw .invalidResponse(operation.encoded, "data is of type \(Quote.escaped(single.data.type)), not '\(Attributes.type)'")
        }
        return single
    }
}

struct AppAttributes: ResourceAttributes {
    static let type = "apps"
    var bundleId: String?
    var name: String?
}

struct PurchaseAttributes: ResourceAttributes {
    static let type = "inAppPurchases"
    var name: String?
    var productId: String?
    var inAppPurchaseType: String?
    var state: String?
    var familySharable: Bool?
    var reviewNote: String?
}

struct GroupAttributes: ResourceAttributes {
    static let type = "subscriptionGroups"
    var referenceName: String?
}

struct GroupLocalizationAttributes: ResourceAttributes {
    static let type = "subscriptionGroupLocalizations"
    var locale: String?
    var name: String?
    var customAppName: String?
    var state: String?
}

struct TerritoryAttributes: ResourceAttributes {
    static let type = "territories"
    var currency: String?
}

/// The availability resources' types, and their review screenshots'.
enum Availabilities {
    static let ofPurchases = "inAppPurchaseAvailabilities"
    static let ofSubscriptions = "subscriptionAvailabilities"
    static let purchaseScreenshots = "inAppPurchaseAppStoreReviewScreenshots"
    static let subscriptionScreenshots = "subscriptionAppStoreReviewScreenshots"
}

struct SubscriptionAttributes: ResourceAttributes {
    static let type = "subscriptions"
    var name: String?
    var productId: String?
    var state: String?
    var subscriptionPeriod: String?
    var groupLevel: Int?
    var familySharable: Bool?
    var reviewNote: String?
}

/// Which products' localizations: the two kinds have a resource type each and the same attributes.
protocol LocalizationKind: Sendable {
    static var type: String { get }
}

enum OfPurchases: LocalizationKind {
    static let type = "inAppPurchaseLocalizations"
}

enum OfSubscriptions: LocalizationKind {
    static let type = "subscriptionLocalizations"
}

struct LocalizationAttributes<Kind: LocalizationKind>: ResourceAttributes {
    static var type: String { Kind.type }
    var locale: String?
    var name: String?
    var description: String?
    var state: String?

    var localization: ASCSnapshot.Localization? {
        locale.map { ASCSnapshot.Localization(locale: $0, name: name, description: description, state: state) }
    }
}

struct PurchasePriceAttributes: ResourceAttributes {
    static let type = "inAppPurchasePrices"
    var startDate: String?
    var endDate: String?
}

struct SubscriptionPriceAttributes: ResourceAttributes {
    static let type = "subscriptionPrices"
    var startDate: String?
}

struct OfferAttributes: ResourceAttributes {
    static let type = "subscriptionIntroductoryOffers"
    var startDate: String?
    var endDate: String?
    var offerMode: String?
    var duration: String?
    var numberOfPeriods: Int?
}

/// The attributes of what `included` holds (localizations, price points, territories), every
/// field optional: one type decodes them all; the resource's type says which it is.
struct IncludedAttributes: Decodable, Sendable {
    var locale: String?
    var name: String?
    var description: String?
    var state: String?
    var customerPrice: String?
    var currency: String?
    var availableInNewTerritories: Bool?
    var customAppName: String?
    // A promotional offer's.
    var offerCode: String?
    var offerMode: String?
    var duration: String?
    var numberOfPeriods: Int?
    // A custom code's.
    var active: Bool?
    var customCode: String?
    var numberOfCodes: Int?
    var expirationDate: String?
}

/// A custom code of an offer code, as a list gives it.
struct CustomCodeAttributes: Decodable, Sendable, ResourceAttributes {
    static let type = "subscriptionOfferCodeCustomCodes"
    var customCode: String?
    var numberOfCodes: Int?
    var expirationDate: String?
    var active: Bool?
}

/// A subscription's offer code, as its list gives it.
struct OfferCodeAttributes: Decodable, Sendable, ResourceAttributes {
    static let type = "subscriptionOfferCodes"
    var name: String?
    var offerMode: String?
    var duration: String?
    var numberOfPeriods: Int?
    var customerEligibilities: [String]?
    var offerEligibility: String?
    var active: Bool?
}

/// A subscription's win-back offer, as its list gives it.
struct WinBackOfferAttributes: Decodable, Sendable, ResourceAttributes {
    static let type = "winBackOffers"
    struct Months: Decodable, Sendable { var minimum: Int?; var maximum: Int? }
    var referenceName: String?
    var offerId: String?
    var duration: String?
    var offerMode: String?
    var periodCount: Int?
    var customerEligibilityPaidSubscriptionDurationInMonths: Int?
    var customerEligibilityTimeSinceLastSubscribedInMonths: Months?
    var customerEligibilityWaitBetweenOffersInMonths: Int?
    var startDate: String?
    var endDate: String?
    var priority: String?
}

/// A subscription's promotional offer, as a list or an include gives it.
struct PromotionalOfferAttributes: Decodable, Sendable, ResourceAttributes {
    static let type = "subscriptionPromotionalOffers"
    var name: String?
    var offerCode: String?
    var offerMode: String?
    var duration: String?
    var numberOfPeriods: Int?
}
