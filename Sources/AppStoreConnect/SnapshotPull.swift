import Diagnostics
import Foundation
import Support

/// Pulls an app's in-app purchases, subscription groups, subscriptions and their localizations
/// from App Store Connect — and, for a storefront, their prices and introductory offers — in as
/// few requests as Apple's document allows (docs/asc.md has the formula):
///
/// - the lists, 200 resources a page, each product's localizations included (50 at most; a
///   product with more has them fetched) and, for a storefront, whether a subscription has
///   introductory offers at all;
/// - then one request per product for its price in the storefront (a second for an in-app
///   purchase whose price there is not manual: its automatic, equalized price is another list),
///   and one more per subscription that has introductory offers.
///
/// The per-product requests run on `connections` connections at once. The snapshot is the same
/// whatever their number or the order the answers come in. When the key's requests for the hour
/// run out (or App Store Connect keeps failing), the pull stops and returns what it has with
/// what it lacks (`pending`): a partial snapshot that `resume` finishes.
public struct SnapshotPull: Sendable {
    public static let pageSize = 200
    static let includedPerResource = 50
    /// Connections a pull keeps open at once by default, and at most.
    public static let defaultConnections = 4
    public static let connectionRange = 1...8

    /// The storefront (alpha-3 territory, `USA`) whose prices and introductory offers are pulled;
    /// nil pulls none.
    public var storefront: String?
    /// The day whose prices count (a price scheduled to start later is not yet the price).
    public var today: String
    public var connections: Int
    /// Whether each product's territories are pulled (`--availability`): one request a product.
    public var availability: Bool
    /// Whether each product's price in every territory is pulled (`--all-storefronts`): two
    /// requests an in-app purchase, one a subscription; the price in `storefront` comes with them.
    public var allTerritories: Bool
    /// Whether each subscription's promotional offers are pulled (`--promotional-offers`): they
    /// come with the list of subscriptions (50 a subscription; one request more beyond).
    public var promotionalOffers: Bool
    /// Whether each subscription's win-back offers are pulled (`--win-back-offers`): one request
    /// a subscription.
    public var winBackOffers: Bool
    /// Whether each subscription's offer codes are pulled, with their custom codes
    /// (`--offer-codes`): the list of subscriptions says which have any; one request more for each
    /// that has (and one for an offer code with more than 50 custom codes).
    public var offerCodes: Bool

    public init(storefront: String? = nil, today: Date = Date(), connections: Int = SnapshotPull.defaultConnections, availability: Bool = false,
                allTerritories: Bool = false, promotionalOffers: Bool = false, winBackOffers: Bool = false,
                offerCodes: Bool = false) {
        self.offerCodes = offerCodes
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
        self.storefront = storefront
        self.availability = availability
        self.allTerritories = allTerritories
        self.today = Self.day(today)
        self.connections = min(max(connections, Self.connectionRange.lowerBound), Self.connectionRange.upperBound)
    }

    /// `date`'s day in UTC, as App Store Connect writes a start date (`2027-01-15`).
    public static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// What a pull ends with: the snapshot (partial when `stoppedBy` is set) and the requests it took.
    public struct Outcome: Sendable {
        public var snapshot: ASCSnapshot
        /// Why the pull stopped before it was done: the hour's requests, or App Store Connect failing.
        public var stoppedBy: ASCError?
    }

    /// `app`: a bundle ID (`com.acme.app`) or an Apple ID (all digits).
    public func pull(app: String, client: ASCClient) throws(ASCError) -> Outcome {
        let found = try findApp(app, client: client)
        var work: [ASCSnapshot.Pending] = []
        let purchases = try listPurchases(of: found.id, client, &work)
        let groups = try listGroups(of: found.id, client, &work)
        let state = PullState(ASCSnapshot(app: found, inAppPurchases: purchases, subscriptionGroups: groups))
        return try run(work, state, client)
    }

    /// Finishes a partial snapshot: only what it lacks is asked for.
    public func resume(_ partial: ASCSnapshot, client: ASCClient) throws(ASCError) -> Outcome {
        var snapshot = partial
        // Each piece of work once, whatever the file repeats: at most one request's worth a kind and product.
        let pending = Set(snapshot.pending ?? []).sorted()
        snapshot.pending = nil
        let state = PullState(snapshot)
        for (index, item) in pending.enumerated() where !state.knows(item) {
            throw .configuration("the partial snapshot's pending[\(index)] names \(Quote.escaped(item.id)), which it does not hold; pull it again without --resume")
        }
        return try run(pending, state, client)
    }

    // MARK: The lists

    private func listPurchases(of app: String, _ client: ASCClient, _ work: inout [ASCSnapshot.Pending]) throws(ASCError) -> [ASCSnapshot.InAppPurchase] {
        var found: [ASCSnapshot.InAppPurchase] = []
        let path = try APIPath("/v1/apps", app, "inAppPurchasesV2")
        let query = [("limit", "\(Self.pageSize)"), ("include", "inAppPurchaseLocalizations,appStoreReviewScreenshot,inAppPurchaseAvailability"),
                     ("fields[inAppPurchases]", "name,productId,inAppPurchaseType,state,familySharable,reviewNote,inAppPurchaseLocalizations,"
                        + "appStoreReviewScreenshot,inAppPurchaseAvailability"),
                     ("fields[inAppPurchaseLocalizations]", "name,locale,description,state"),
                     ("fields[inAppPurchaseAppStoreReviewScreenshots]", "fileName"),
                     ("fields[inAppPurchaseAvailabilities]", "availableInNewTerritories"),
                     ("limit[inAppPurchaseLocalizations]", "\(Self.includedPerResource)")]
        try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
            let page = try Page<PurchaseAttributes>.read(body, path)
            for resource in page.data {
                let a = resource.attributes
                guard let productID = a?.productId else { continue }
                let included: [ASCSnapshot.Localization]? = try localizations(of: resource, "inAppPurchaseLocalizations",
                                                                              OfPurchases.type, page.included, path)
                if included == nil { work.append(.init(.localizations, resource.id)) }
                // Its price schedule has the in-app purchase's ID; one without a schedule answers 404.
                if let prices = priceWork { work.append(.init(prices, resource.id)) }
                let review = try self.review(of: resource, screenshots: Availabilities.purchaseScreenshots,
                                             availability: ("inAppPurchaseAvailability", Availabilities.ofPurchases), page.included, path)
                if availability, review?.availability != nil { work.append(.init(.availability, resource.id)) }
                found.append(ASCSnapshot.InAppPurchase(
                    productId: productID, id: resource.id, name: a?.name, type: a?.inAppPurchaseType, state: a?.state,
                    familySharable: a?.familySharable, localizations: included ?? [], review: review, reviewNote: a?.reviewNote))
            }
            return try page.next(path)
        }
        return found
    }

    private func listGroups(of app: String, _ client: ASCClient, _ work: inout [ASCSnapshot.Pending]) throws(ASCError) -> [ASCSnapshot.SubscriptionGroup] {
        let path = try APIPath("/v1/apps", app, "subscriptionGroups")
        var found: [ASCSnapshot.SubscriptionGroup] = []
        let query = [("limit", "\(Self.pageSize)"), ("include", "subscriptionGroupLocalizations"),
                     ("fields[subscriptionGroups]", "referenceName,subscriptionGroupLocalizations"),
                     ("fields[subscriptionGroupLocalizations]", "name,customAppName,locale,state"),
                     ("limit[subscriptionGroupLocalizations]", "\(Self.includedPerResource)")]
        try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
            let page = try Page<GroupAttributes>.read(body, path)
            for resource in page.data {
                var (localizations, more) = try groupLocalizations(of: resource, page.included, path)
                if more { localizations = try allGroupLocalizations(resource.id, client) }
                found.append(ASCSnapshot.SubscriptionGroup(id: resource.id, referenceName: resource.attributes?.referenceName, subscriptions: [],
                                                           localizations: localizations))
                work.append(.init(.subscriptions, resource.id))
            }
            return try page.next(path)
        }
        return found
    }

    /// A group's localizations from `included`: nil when the answer gives no linkage; `more` when
    /// it has more than were included (they are fetched then).
    private func groupLocalizations(of resource: Resource<GroupAttributes>, _ included: Included,
                                    _ path: APIPath) throws(ASCError) -> (list: [ASCSnapshot.GroupLocalization]?, more: Bool) {
        guard let link = resource.relationships?["subscriptionGroupLocalizations"], case .many(let linked) = link.data else { return (nil, false) }
        if let total = link.total, total > linked.count { return (nil, true) }
        var found: [ASCSnapshot.GroupLocalization] = []
        for linkage in linked {
            guard linkage.type == GroupLocalizationAttributes.type else {
                throw .invalidResponse(path.encoded, "a subscriptionGroupLocalizations link is of type \(Quote.escaped(linkage.type)), "
                                       + "not '\(GroupLocalizationAttributes.type)'")
            }
            guard let item = included[linkage] else { return (nil, true) }
            if let a = item.attributes, let locale = a.locale {
                found.append(ASCSnapshot.GroupLocalization(locale: locale, name: a.name, customAppName: a.customAppName, state: a.state))
            }
        }
        return (found, false)
    }

    /// Every localization of a group (App Store Connect has 39 locales, so the list's 50 hold
    /// them: this is for a server that says otherwise).
    private func allGroupLocalizations(_ group: String, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.GroupLocalization] {
        let path = try APIPath("/v1/subscriptionGroups", group, "subscriptionGroupLocalizations")
        var all: [ASCSnapshot.GroupLocalization] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)")]) { (body) throws(ASCError) -> URL? in
            let page = try Page<GroupLocalizationAttributes>.read(body, path)
            for resource in page.data {
                guard let a = resource.attributes, let locale = a.locale else { continue }
                all.append(ASCSnapshot.GroupLocalization(locale: locale, name: a.name, customAppName: a.customAppName, state: a.state))
            }
            return try page.next(path)
        }
        return all
    }

    /// A product's review screenshot and availability, from the list's included linkage: nil when
    /// the answer has neither relationship (a server that does not give them). Apple's document
    /// has no null linkage for a to-one relationship: asked for and without `data`, there is none.
    private func review<A>(of resource: Resource<A>, screenshots: String, availability: (relationship: String, type: String),
                           _ included: Included, _ path: APIPath) throws(ASCError) -> ASCSnapshot.Review? {
        let shot = resource.relationships?["appStoreReviewScreenshot"]
        let held = resource.relationships?[availability.relationship]
        if shot == nil, held == nil { return nil }
        var review = ASCSnapshot.Review(screenshot: nil, availability: nil)
        switch shot?.data {
        case nil: break
        case .absent?, .none?: review.screenshot = false
        case .one(let linkage)?:
            guard linkage.type == screenshots else {
                throw .invalidResponse(path.encoded, "an appStoreReviewScreenshot link is of type \(Quote.escaped(linkage.type)), not '\(screenshots)'")
            }
            review.screenshot = true
        case .many?: throw .invalidResponse(path.encoded, "appStoreReviewScreenshot links to a list, not one screenshot")
        }
        switch held?.data {
        case nil, .absent?, .none?: break
        case .one(let linkage)?:
            guard linkage.type == availability.type else {
                throw .invalidResponse(path.encoded, "an \(availability.relationship) link is of type \(Quote.escaped(linkage.type)), not '\(availability.type)'")
            }
            review.availability = ASCSnapshot.Availability(id: linkage.id, availableInNewTerritories: included[linkage]?.attributes?.availableInNewTerritories)
        case .many?: throw .invalidResponse(path.encoded, "\(availability.relationship) links to a list, not one availability")
        }
        return review
    }

    /// A group's subscriptions, and the work each needs.
    private func subscriptions(of group: String, _ client: ASCClient) throws(ASCError) -> (found: [ASCSnapshot.Subscription], work: [ASCSnapshot.Pending]) {
        let path = try APIPath("/v1/subscriptionGroups", group, "subscriptions")
        let offers = storefront != nil
        var query = [("limit", "\(Self.pageSize)"),
                     ("include", "subscriptionLocalizations,appStoreReviewScreenshot,subscriptionAvailability" + (offers ? ",introductoryOffers" : "")),
                     ("fields[subscriptions]", "name,productId,familySharable,state,subscriptionPeriod,groupLevel,reviewNote,subscriptionLocalizations,"
                        + "appStoreReviewScreenshot,subscriptionAvailability" + (offers ? ",introductoryOffers" : "")),
                     ("fields[subscriptionLocalizations]", "name,locale,description,state"),
                     ("fields[subscriptionAppStoreReviewScreenshots]", "fileName"),
                     ("fields[subscriptionAvailabilities]", "availableInNewTerritories"),
                     ("limit[subscriptionLocalizations]", "\(Self.includedPerResource)")]
        if offers {
            // Whether a subscription has introductory offers at all: one is enough to know.
            query += [("limit[introductoryOffers]", "1"), ("fields[subscriptionIntroductoryOffers]", "offerMode")]
        }
        if promotionalOffers {
            query[1].1 += ",promotionalOffers"
            query[2].1 += ",promotionalOffers"
            query += [("limit[promotionalOffers]", "\(Self.includedPerResource)"),
                      ("fields[subscriptionPromotionalOffers]", Self.promotionalOfferFields)]
        }
        if offerCodes {
            query[1].1 += ",offerCodes"
            query[2].1 += ",offerCodes"
            // One is enough to know whether a subscription has any: its own list reads them.
            query += [("limit[offerCodes]", "1"), ("fields[subscriptionOfferCodes]", "name")]
        }
        var found: [ASCSnapshot.Subscription] = []
        var work: [ASCSnapshot.Pending] = []
        try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
            let page = try Page<SubscriptionAttributes>.read(body, path)
            for resource in page.data {
                let a = resource.attributes
                guard let productID = a?.productId else { continue }
                let included = try localizations(of: resource, "subscriptionLocalizations", OfSubscriptions.type, page.included, path)
                if included == nil { work.append(.init(.localizations, resource.id)) }
                if let prices = priceWork { work.append(.init(prices, resource.id)) }
                if storefront != nil {
                    let offers = resource.relationships?["introductoryOffers"]
                    if case .many(let linked)? = offers?.data, linked.isEmpty, (offers?.total ?? 0) == 0 {
                        // None, in any territory.
                    } else {
                        work.append(.init(.introductoryOffer, resource.id))
                    }
                }
                let review = try self.review(of: resource, screenshots: Availabilities.subscriptionScreenshots,
                                             availability: ("subscriptionAvailability", Availabilities.ofSubscriptions), page.included, path)
                if availability, review?.availability != nil { work.append(.init(.availability, resource.id)) }
                var subscription = ASCSnapshot.Subscription(
                    productId: productID, id: resource.id, name: a?.name, state: a?.state, period: a?.subscriptionPeriod,
                    groupLevel: a?.groupLevel, familySharable: a?.familySharable, localizations: included ?? [], review: review,
                    reviewNote: a?.reviewNote)
                if promotionalOffers {
                    subscription.promotionalOffers = try includedPromotionalOffers(of: resource, page.included, path)
                    if subscription.promotionalOffers == nil { work.append(.init(.promotionalOffers, resource.id)) }
                }
                if winBackOffers { work.append(.init(.winBackOffers, resource.id)) }
                if offerCodes {
                    subscription.offerCodes = try includedOfferCodes(of: resource, path)
                    if subscription.offerCodes == nil { work.append(.init(.offerCodes, resource.id)) }
                }
                found.append(subscription)
            }
            return try page.next(path)
        }
        return (found, work)
    }

    /// A resource's localizations from `included`; nil when the relationship says it has more
    /// than were included (50 at most are), or gives no linkage: they are fetched then.
    private func localizations<A>(of resource: Resource<A>, _ relationship: String, _ type: String, _ included: Included,
                                  _ path: APIPath) throws(ASCError) -> [ASCSnapshot.Localization]? {
        guard let link = resource.relationships?[relationship], case .many(let linked) = link.data else { return nil }
        if let total = link.total, total > linked.count { return nil }
        var found: [ASCSnapshot.Localization] = []
        for linkage in linked {
            guard linkage.type == type else {
                throw .invalidResponse(path.encoded, "a \(relationship) link is of type \(Quote.escaped(linkage.type)), not '\(type)'")
            }
            // A linked localization the page does not include is not there to read: fetched on its own.
            guard let item = included[linkage] else { return nil }
            if let l = item.attributes?.localization { found.append(l) }
        }
        return found
    }

    /// Every localization of a product (beyond the 50 a list includes).
    private func allLocalizations<Kind: LocalizationKind>(_ path: APIPath, _ kind: Kind.Type, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.Localization] {
        var all: [ASCSnapshot.Localization] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)")]) { (body) throws(ASCError) -> URL? in
            let page = try Page<LocalizationAttributes<Kind>>.read(body, path)
            all += page.data.compactMap { $0.attributes?.localization }
            return try page.next(path)
        }
        return all
    }

    static let promotionalOfferFields = "name,offerCode,offerMode,duration,numberOfPeriods"

    /// A subscription's promotional offers from `included`; nil when it has more than were
    /// included, or the relationship gives no linkage: they are fetched then.
    private func includedPromotionalOffers<A>(of resource: Resource<A>, _ included: Included, _ path: APIPath) throws(ASCError) -> [ASCSnapshot.PromotionalOffer]? {
        guard let link = resource.relationships?["promotionalOffers"], case .many(let linked) = link.data else { return nil }
        if let total = link.total, total > linked.count { return nil }
        var found: [ASCSnapshot.PromotionalOffer] = []
        for linkage in linked {
            guard linkage.type == PromotionalOfferAttributes.type else {
                throw .invalidResponse(path.encoded, "a promotionalOffers link is of type \(Quote.escaped(linkage.type)), not '\(PromotionalOfferAttributes.type)'")
            }
            guard let a = included[linkage]?.attributes else { return nil }
            if let code = a.offerCode {
                found.append(.init(code: code, name: a.name, mode: a.offerMode, duration: a.duration, periods: a.numberOfPeriods))
            }
        }
        return found
    }

    /// Every promotional offer of a subscription (beyond the 50 its list includes).
    private func allPromotionalOffers(_ id: String, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.PromotionalOffer] {
        let path = try APIPath("/v1/subscriptions", id, "promotionalOffers")
        var found: [ASCSnapshot.PromotionalOffer] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)"), ("fields[subscriptionPromotionalOffers]", Self.promotionalOfferFields)]) {
            (body) throws(ASCError) -> URL? in
            let page = try Page<PromotionalOfferAttributes>.read(body, path)
            for resource in page.data {
                guard let a = resource.attributes, let code = a.offerCode else { continue }
                found.append(.init(code: code, name: a.name, mode: a.offerMode, duration: a.duration, periods: a.numberOfPeriods))
                guard found.count <= ASCValue.maxPromotionalOffers else { throw .invalidResponse(path.encoded, "more promotional offers than a subscription has") }
            }
            return try page.next(path)
        }
        return found
    }

    static let offerCodeFields = "name,customerEligibilities,offerEligibility,duration,offerMode,numberOfPeriods,active,customCodes"
    static let customCodeFields = "customCode,numberOfCodes,expirationDate,active"

    /// Whether a subscription has offer codes, from the list of subscriptions (which includes one
    /// at most): `[]` when it has none; nil when it has some, which its own list then reads with
    /// their custom codes.
    private func includedOfferCodes<A>(of resource: Resource<A>, _ path: APIPath) throws(ASCError) -> [ASCSnapshot.OfferCode]? {
        guard let link = resource.relationships?["offerCodes"], case .many(let linked) = link.data else { return nil }
        for linkage in linked where linkage.type != OfferCodeAttributes.type {
            throw .invalidResponse(path.encoded, "an offerCodes link is of type \(Quote.escaped(linkage.type)), not '\(OfferCodeAttributes.type)'")
        }
        return linked.isEmpty && (link.total ?? 0) == 0 ? [] : nil
    }

    /// Every offer code of a subscription, each with its custom codes (50 come with each; a
    /// request more for one with more).
    private func allOfferCodes(_ id: String, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.OfferCode] {
        let path = try APIPath("/v1/subscriptions", id, "offerCodes")
        var found: [ASCSnapshot.OfferCode] = []
        var more: [Int] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)"), ("include", "customCodes"),
                                             ("fields[subscriptionOfferCodes]", Self.offerCodeFields),
                                             ("fields[subscriptionOfferCodeCustomCodes]", Self.customCodeFields),
                                             ("limit[customCodes]", "\(Self.includedPerResource)")]) {
            (body) throws(ASCError) -> URL? in
            let page = try Page<OfferCodeAttributes>.read(body, path)
            for resource in page.data {
                guard let a = resource.attributes, let name = a.name else { continue }
                let custom = try includedCustomCodes(of: resource, page.included, path)
                if custom == nil { more.append(found.count) }
                found.append(.init(name: name, mode: a.offerMode, duration: a.duration, periods: a.numberOfPeriods, eligibilities: a.customerEligibilities,
                                   offerEligibility: a.offerEligibility, active: a.active, id: resource.id, customCodes: custom))
                guard found.count <= ASCValue.maxPromotionalOffers else { throw .invalidResponse(path.encoded, "more offer codes than a subscription has") }
            }
            return try page.next(path)
        }
        for index in more {
            found[index].customCodes = try allCustomCodes(found[index].id ?? "", client)
        }
        return found
    }

    /// An offer code's custom codes from `included`; nil when it has more than were included, or
    /// the relationship gives no linkage: they are fetched then.
    private func includedCustomCodes<A>(of resource: Resource<A>, _ included: Included, _ path: APIPath) throws(ASCError) -> [ASCSnapshot.CustomCode]? {
        guard let link = resource.relationships?["customCodes"], case .many(let linked) = link.data else { return nil }
        if let total = link.total, total > linked.count { return nil }
        var found: [ASCSnapshot.CustomCode] = []
        for linkage in linked {
            guard linkage.type == CustomCodeAttributes.type else {
                throw .invalidResponse(path.encoded, "a customCodes link is of type \(Quote.escaped(linkage.type)), not '\(CustomCodeAttributes.type)'")
            }
            guard let c = included[linkage]?.attributes else { return nil }
            if let code = c.customCode {
                found.append(.init(code: code, numberOfCodes: c.numberOfCodes, expirationDate: c.expirationDate, active: c.active))
            }
        }
        return found
    }

    /// Every custom code of an offer code (beyond the 50 its list includes).
    private func allCustomCodes(_ id: String, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.CustomCode] {
        let path = try APIPath("/v1/subscriptionOfferCodes", id, "customCodes")
        var found: [ASCSnapshot.CustomCode] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)"), ("fields[subscriptionOfferCodeCustomCodes]", Self.customCodeFields)]) {
            (body) throws(ASCError) -> URL? in
            let page = try Page<CustomCodeAttributes>.read(body, path)
            for resource in page.data {
                guard let a = resource.attributes, let code = a.customCode else { continue }
                found.append(.init(code: code, numberOfCodes: a.numberOfCodes, expirationDate: a.expirationDate, active: a.active))
                guard found.count <= ASCValue.maxPromotionalOffers else { throw .invalidResponse(path.encoded, "more custom codes than an offer code has") }
            }
            return try page.next(path)
        }
        return found
    }

    static let winBackOfferFields = "referenceName,offerId,duration,offerMode,periodCount,customerEligibilityPaidSubscriptionDurationInMonths,"
        + "customerEligibilityTimeSinceLastSubscribedInMonths,customerEligibilityWaitBetweenOffersInMonths,startDate,endDate,priority"

    /// Every win-back offer of a subscription: one request (a page holds 200).
    private func allWinBackOffers(_ id: String, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.WinBackOffer] {
        let path = try APIPath("/v1/subscriptions", id, "winBackOffers")
        var found: [ASCSnapshot.WinBackOffer] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)"), ("fields[winBackOffers]", Self.winBackOfferFields)]) {
            (body) throws(ASCError) -> URL? in
            let page = try Page<WinBackOfferAttributes>.read(body, path)
            for resource in page.data {
                guard let a = resource.attributes, let offerId = a.offerId else { continue }
                let lapsed = a.customerEligibilityTimeSinceLastSubscribedInMonths
                found.append(.init(offerId: offerId, name: a.referenceName, mode: a.offerMode, duration: a.duration, periods: a.periodCount,
                                   paidMonths: a.customerEligibilityPaidSubscriptionDurationInMonths, lapsedMinMonths: lapsed?.minimum,
                                   lapsedMaxMonths: lapsed?.maximum, waitMonths: a.customerEligibilityWaitBetweenOffersInMonths,
                                   startDate: a.startDate, endDate: a.endDate, priority: a.priority))
                guard found.count <= ASCValue.maxPromotionalOffers else { throw .invalidResponse(path.encoded, "more win-back offers than a subscription has") }
            }
            return try page.next(path)
        }
        return found
    }

    /// The work that prices a product: in every territory, in the storefront, or none.
    private var priceWork: ASCSnapshot.Pending.Work? {
        allTerritories ? .prices : storefront != nil ? .price : nil
    }

    // MARK: The work, on several connections

    private func run(_ work: [ASCSnapshot.Pending], _ state: PullState, _ client: ASCClient) throws(ASCError) -> Outcome {
        // The lists first (a group's subscriptions bring their own work), then product by product.
        let ordered = work.enumerated().sorted { ($0.element.work, $0.offset) < ($1.element.work, $1.offset) }.map(\.element)
        let queue = WorkQueue(ordered)
        queue.run(threads: connections) { item in
            do throws(ASCError) {
                return .done(adding: try self.perform(item, state, client))
            } catch {
                state.stopped(by: error)
                return .stop(item)
            }
        }
        if let failure = state.failure { throw failure }
        var snapshot = state.snapshot
        if queue.wasStopped { snapshot.pending = queue.untaken }
        if let problem = snapshot.firstProblem() {
            throw .invalidResponse("the app's products", "\(problem.at) \(problem.why)")
        }
        snapshot.storefront = storefront
        snapshot.sort()
        return Outcome(snapshot: snapshot, stoppedBy: queue.wasStopped ? state.stop : nil)
    }

    private func perform(_ item: ASCSnapshot.Pending, _ state: PullState, _ client: ASCClient) throws(ASCError) -> [ASCSnapshot.Pending] {
        let isPurchase = state.isPurchase(item.id)
        switch item.work {
        case .subscriptions:
            let (found, more) = try subscriptions(of: item.id, client)
            state.add(found, toGroup: item.id)
            return more
        case .localizations:
            let list = isPurchase
                ? try allLocalizations(try APIPath("/v2/inAppPurchases", item.id, "inAppPurchaseLocalizations"), OfPurchases.self, client)
                : try allLocalizations(try APIPath("/v1/subscriptions", item.id, "subscriptionLocalizations"), OfSubscriptions.self, client)
            state.set(item.id) { $0.localizations = list }
        case .price:
            guard let storefront else { return [] }
            let price = isPurchase
                ? try purchasePrice(item.id, storefront, client)
                : try subscriptionPrice(item.id, storefront, client)
            state.set(item.id) { $0.price = price }
        case .introductoryOffer:
            guard let storefront, !isPurchase else { return [] }
            let offer = try introductoryOffer(item.id, storefront, client)
            state.set(item.id) { $0.introductoryOffer = offer }
        case .prices:
            let (prices, next) = try pricesEverywhere(item.id, isPurchase: isPurchase, client)
            state.set(item.id) { fields in
                fields.prices = ASCSnapshot.TerritoryPrices(prices)
                fields.scheduledPrices = next.isEmpty ? nil : ASCSnapshot.ScheduledPrices(next)
                if let storefront { fields.price = prices[storefront] }
            }
        case .promotionalOffers:
            guard !isPurchase else { return [] }
            let offers = try allPromotionalOffers(item.id, client)
            state.set(item.id) { $0.promotionalOffers = offers }
        case .winBackOffers:
            guard !isPurchase else { return [] }
            let offers = try allWinBackOffers(item.id, client)
            state.set(item.id) { $0.winBackOffers = offers }
        case .offerCodes:
            guard !isPurchase else { return [] }
            let codes = try allOfferCodes(item.id, client)
            state.set(item.id) { $0.offerCodes = codes }
        case .availability:
            guard let availabilityID = state.availability(of: item.id) else { return [] }
            let territories = try availableTerritories(availabilityID, ofPurchase: isPurchase, client)
            state.set(item.id) { $0.review?.availability?.territories = territories }
        }
        return []
    }

    /// The territories an availability lists: one request (App Store Connect has 175, a page 200).
    private func availableTerritories(_ id: String, ofPurchase: Bool, _ client: ASCClient) throws(ASCError) -> [String] {
        let path = try APIPath(ofPurchase ? "/v1/inAppPurchaseAvailabilities" : "/v1/subscriptionAvailabilities", id, "availableTerritories")
        var found: [String] = []
        try client.getAllPages(path, query: [("limit", "\(Self.pageSize)"), ("fields[territories]", "currency")]) { (body) throws(ASCError) -> URL? in
            let page = try Page<TerritoryAttributes>.read(body, path)
            for resource in page.data {
                if let why = ASCValue.code(resource.id) {
                    throw .invalidResponse(path.encoded, "a territory is \(Quote.escaped(resource.id)): \(why)")
                }
                found.append(resource.id)
            }
            return try page.next(path)
        }
        return Array(Set(found)).sorted()
    }

    // MARK: Prices

    /// The price or offer in effect today among `items` (each with its start and end day, nil for
    /// open): the one that started last.
    private func current<Value>(_ items: [(start: String?, end: String?, value: Value)]) -> Value? {
        items.filter { ($0.start ?? "") <= today && ($0.end.map { $0 > today } ?? true) }
            .max { ($0.start ?? "") < ($1.start ?? "") }?.value
    }

    /// A price from a resource's price point and territory in `included`.
    private func price<A>(_ resource: Resource<A>, _ included: Included, point: (relationship: String, type: String),
                          _ path: APIPath) throws(ASCError) -> ASCSnapshot.Price? {
        guard let linkage = resource.relationships?[point.relationship]?.one else { return nil }
        guard linkage.type == point.type else {
            throw .invalidResponse(path.encoded, "a \(point.relationship) link is of type \(Quote.escaped(linkage.type)), not '\(point.type)'")
        }
        guard let amount = included[linkage]?.attributes?.customerPrice else { return nil }
        let territory = resource.relationships?["territory"]?.one
        let currency = territory.flatMap { $0.type == "territories" ? included[$0]?.attributes?.currency : nil }
        return ASCSnapshot.Price(amount: amount, currency: currency)
    }

    /// A list of prices (or offers) in the storefront, each with the days it runs; nil when App
    /// Store Connect answers 404 (an in-app purchase without a price schedule yet).
    private func dated<A: ResourceAttributes, Value>(_ path: APIPath, _ query: [(String, String)], _ client: ASCClient,
                                                    _ make: (Resource<A>, Included) throws(ASCError) -> (start: String?, end: String?, value: Value)?)
        throws(ASCError) -> [(start: String?, end: String?, value: Value)]? {
        var found: [(start: String?, end: String?, value: Value)] = []
        do {
            try client.getAllPages(path, query: query) { (body) throws(ASCError) -> URL? in
                let page = try Page<A>.read(body, path)
                for resource in page.data {
                    guard let entry = try make(resource, page.included) else { continue }
                    for (name, day) in [("startDate", entry.start), ("endDate", entry.end)] {
                        if let day, let why = ASCValue.date(day) {
                            throw .invalidResponse(path.encoded, "a \(name) is \(Quote.escaped(day)): \(why)")
                        }
                    }
                    found.append(entry)
                }
                return try page.next(path)
            }
        } catch {
            if case .api(_, 404, _, _, _) = error { return nil }
            throw error
        }
        return found
    }

    /// A list of prices (or offers) and what its query asks for: its resource type, the fields
    /// of it read, and the price point each links to, included with its territory.
    private struct PriceList {
        let type: String
        let fields: String
        let point: (relationship: String, type: String)

        static let purchases = PriceList(type: "inAppPurchasePrices", fields: "startDate,endDate,inAppPurchasePricePoint,territory",
                                         point: ("inAppPurchasePricePoint", "inAppPurchasePricePoints"))
        static let subscriptions = PriceList(type: "subscriptionPrices", fields: "startDate,territory,subscriptionPricePoint",
                                             point: ("subscriptionPricePoint", "subscriptionPricePoints"))
        static let introductoryOffers = PriceList(type: "subscriptionIntroductoryOffers",
                                                  fields: "startDate,endDate,duration,offerMode,numberOfPeriods,territory,subscriptionPricePoint",
                                                  point: ("subscriptionPricePoint", "subscriptionPricePoints"))

        /// The query, in `territory` alone or (nil) in every territory.
        func query(in territory: String?) -> [(String, String)] {
            (territory.map { [("filter[territory]", $0)] } ?? [])
                + [("include", "\(point.relationship),territory"), ("limit", "\(SnapshotPull.pageSize)"),
                   ("fields[\(type)]", fields), ("fields[\(point.type)]", "customerPrice"), ("fields[territories]", "currency")]
        }
    }

    /// An in-app purchase's price (its price schedule has the purchase's ID): the schedule's
    /// manual price in the storefront (the base
    /// territory's, or one set there by hand), else the automatic (equalized) one. Manual prices
    /// win, so they are asked first; Apple's document filters the two lists by territory only
    /// as two operations, so an automatic price costs a second request.
    private func purchasePrice(_ id: String, _ storefront: String, _ client: ASCClient) throws(ASCError) -> ASCSnapshot.Price? {
        let query = PriceList.purchases.query(in: storefront)
        let point = PriceList.purchases.point
        for list in ["manualPrices", "automaticPrices"] as [StaticString] {
            let path = try APIPath("/v1/inAppPurchasePriceSchedules", id, list)
            let prices: [(start: String?, end: String?, value: ASCSnapshot.Price?)]? = try dated(path, query, client) {
                (resource: Resource<PurchasePriceAttributes>, included) throws(ASCError) in
                (resource.attributes?.startDate, resource.attributes?.endDate, try self.price(resource, included, point: point, path))
            }
            // No price schedule yet (a new product): no price, and no second list to ask.
            guard let prices else { return nil }
            if let price = current(prices) ?? nil { return price }
        }
        return nil
    }

    /// A product's price in every territory that has one, and its next price where a change is
    /// scheduled: an in-app purchase's manual prices (its base territory's and those set by hand)
    /// over its automatic ones — two lists, so two requests, one when it has no price schedule
    /// yet; a subscription's prices, one request. A list longer than a page (a schedule's past
    /// and future prices) takes more.
    private func pricesEverywhere(_ id: String, isPurchase: Bool, _ client: ASCClient) throws(ASCError) -> TerritoryPriceLists {
        guard isPurchase else {
            return try territoryPrices(try APIPath("/v1/subscriptions", id, "prices"), .subscriptions, client) {
                (a: SubscriptionPriceAttributes?) in (a?.startDate, nil)
            } ?? ([:], [:])
        }
        let dates = { (a: PurchasePriceAttributes?) in (a?.startDate, a?.endDate) }
        // No price schedule yet (a new product): no price anywhere, and no second list to ask.
        guard let manual = try territoryPrices(try APIPath("/v1/inAppPurchasePriceSchedules", id, "manualPrices"), .purchases, client, dates) else { return ([:], [:]) }
        let automatic = try territoryPrices(try APIPath("/v1/inAppPurchasePriceSchedules", id, "automaticPrices"), .purchases, client, dates) ?? ([:], [:])
        // Prices to come, by day: a manual price over an automatic one starting the same day.
        var next = automatic.next
        for (territory, entries) in manual.next {
            var byDay = Dictionary((next[territory] ?? []).map { ($0.start, $0) }) { first, _ in first }
            for entry in entries { byDay[entry.start] = entry }
            next[territory] = byDay.values.sorted { $0.start < $1.start }
        }
        return (automatic.current.merging(manual.current) { _, set in set }, next)
    }

    /// Each territory's price today, and its next one where a change is scheduled.
    typealias TerritoryPriceLists = (current: [String: ASCSnapshot.Price], next: [String: [ASCSnapshot.ScheduledPrices.Scheduled]])

    /// The price point of each manual price of an in-app purchase's schedule in effect today, by
    /// territory; nil when it has no schedule (App Store Connect answers 404).
    func manualPricePoints(_ id: String, _ client: ASCClient) throws(ASCError) -> [String: String]? {
        let path = try APIPath("/v1/inAppPurchasePriceSchedules", id, "manualPrices")
        let point = PriceList.purchases.point
        let entries: [(start: String?, end: String?, value: (territory: String, point: String))]? = try dated(path, PriceList.purchases.query(in: nil), client) {
            (resource: Resource<PurchasePriceAttributes>, _) throws(ASCError) in
            guard let territory = resource.relationships?["territory"]?.one, territory.type == "territories",
                  let linkage = resource.relationships?[point.relationship]?.one, linkage.type == point.type else {
                throw .invalidResponse(path.encoded, "manual price \(Quote.escaped(resource.id)) names no territory or price point")
            }
            if let why = ASCValue.code(territory.id) { throw .invalidResponse(path.encoded, "a territory is \(Quote.escaped(territory.id)): \(why)") }
            if let why = ResourceID.problem(linkage.id) { throw .invalidResponse(path.encoded, "a price point's ID \(Quote.escaped(linkage.id)) \(why)") }
            return (resource.attributes?.startDate, resource.attributes?.endDate, (territory.id, linkage.id))
        }
        guard let entries else { return nil }
        var byTerritory: [String: [(start: String?, end: String?, value: String)]] = [:]
        for entry in entries { byTerritory[entry.value.territory, default: []].append((entry.start, entry.end, entry.value.point)) }
        return byTerritory.compactMapValues { current($0) }
    }

    /// The price in effect today in each territory a list of prices names, and the next one (the
    /// first to start after today) where one is scheduled; nil when App Store Connect answers 404.
    private func territoryPrices<A: ResourceAttributes>(_ path: APIPath, _ list: PriceList, _ client: ASCClient, _ dates: (A?) -> (String?, String?))
        throws(ASCError) -> TerritoryPriceLists? {
        let entries: [(start: String?, end: String?, value: (territory: String, price: ASCSnapshot.Price?))]? = try dated(path, list.query(in: nil), client) {
            (resource: Resource<A>, included) throws(ASCError) in
            guard let linkage = resource.relationships?["territory"]?.one, linkage.type == "territories" else {
                throw .invalidResponse(path.encoded, "price \(Quote.escaped(resource.id)) names no territory")
            }
            if let why = ASCValue.code(linkage.id) {
                throw .invalidResponse(path.encoded, "a territory is \(Quote.escaped(linkage.id)): \(why)")
            }
            let (start, end) = dates(resource.attributes)
            return (start, end, (linkage.id, try self.price(resource, included, point: list.point, path)))
        }
        guard let entries else { return nil }
        var byTerritory: [String: [(start: String?, end: String?, value: ASCSnapshot.Price?)]] = [:]
        for entry in entries { byTerritory[entry.value.territory, default: []].append((entry.start, entry.end, entry.value.price)) }
        var prices: [String: ASCSnapshot.Price] = [:]
        var next: [String: [ASCSnapshot.ScheduledPrices.Scheduled]] = [:]
        for (territory, list) in byTerritory {
            if let price = current(list) ?? nil { prices[territory] = price }
            // Those to come, by day (one a day: the list's last for it), at most a snapshot's.
            var byDay: [String: ASCSnapshot.Price] = [:]
            for entry in list { if let start = entry.start, start > today, let price = entry.value { byDay[start] = price } }
            let later = byDay.keys.sorted().prefix(ASCValue.maxScheduledPrices).map { ASCSnapshot.ScheduledPrices.Scheduled(start: $0, price: byDay[$0]!) }
            if !later.isEmpty { next[territory] = later }
        }
        return (prices, next)
    }

    private func subscriptionPrice(_ id: String, _ storefront: String, _ client: ASCClient) throws(ASCError) -> ASCSnapshot.Price? {
        let path = try APIPath("/v1/subscriptions", id, "prices")
        let query = PriceList.subscriptions.query(in: storefront)
        let point = PriceList.subscriptions.point
        let prices: [(start: String?, end: String?, value: ASCSnapshot.Price?)]? = try dated(path, query, client) {
            (resource: Resource<SubscriptionPriceAttributes>, included) throws(ASCError) in
            (resource.attributes?.startDate, nil, try self.price(resource, included, point: point, path))
        }
        // A subscription's price runs until the next one starts.
        return current(prices ?? []) ?? nil
    }

    private func introductoryOffer(_ id: String, _ storefront: String, _ client: ASCClient) throws(ASCError) -> ASCSnapshot.IntroductoryOffer? {
        let path = try APIPath("/v1/subscriptions", id, "introductoryOffers")
        let query = PriceList.introductoryOffers.query(in: storefront)
        let point = PriceList.introductoryOffers.point
        let offers: [(start: String?, end: String?, value: ASCSnapshot.IntroductoryOffer)]? = try dated(path, query, client) {
            (resource: Resource<OfferAttributes>, included) throws(ASCError) in
            guard let a = resource.attributes, let mode = a.offerMode else { return nil }
            let price = mode == "FREE_TRIAL" ? nil : try self.price(resource, included, point: point, path)
            return (a.startDate, a.endDate, ASCSnapshot.IntroductoryOffer(mode: mode, duration: a.duration, periods: a.numberOfPeriods, price: price))
        }
        return current(offers ?? [])
    }

    private func findApp(_ app: String, client: ASCClient) throws(ASCError) -> ASCSnapshot.App {
        let isAppleID = !app.isEmpty && app.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isAppleID {
            let path = try APIPath("/v1/apps", app)
            let single = try Single<AppAttributes>.read(try client.get(path, query: [("fields[apps]", "bundleId,name")]), path)
            return ASCSnapshot.App(id: single.data.id, bundleId: single.data.attributes?.bundleId, name: single.data.attributes?.name)
        }
        let path = APIPath("/v1/apps")
        let page = try Page<AppAttributes>.read(try client.get(path, query: [("filter[bundleId]", app), ("fields[apps]", "bundleId,name"),
                                                                              ("limit", "\(Self.pageSize)")]), path)
        // The filter is not an exact match on every server: the bundle ID is compared here.
        guard let match = page.data.first(where: { $0.attributes?.bundleId == app }) else {
            throw .notFound("App Store Connect has no app with the bundle ID \(Quote.escaped(app)) that this key can see: check the bundle ID "
                            + "(or pass the app's Apple ID, the number in its App Store Connect address) and the key's team")
        }
        return ASCSnapshot.App(id: match.id, bundleId: match.attributes?.bundleId, name: match.attributes?.name)
    }
}
