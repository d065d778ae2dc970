import Diagnostics
import IAPCatalog

/// `ready-not-approved`: App Store Connect has the product, the sandbox serves it, the App Store
/// does not yet: it waits for review, or to be submitted (a first subscription with an app version).
public enum ReadyNotApprovedRule: ReadinessRule {
    public static let description = RuleDescription(
        id: "ready-not-approved", name: "Product not approved yet", severity: .warning,
        rationale: "A product that is Ready to Submit, Waiting for Review, In Review or Pending Binary Approval is returned in the sandbox and TestFlight, so testing passes, but not in the App Store until App Review approves it. A group's first subscription, and an app's first in-app purchase, must be submitted with a new app version: on their own they never reach review. Ready to Submit is a warning (something is left to do); the states under review are infos.",
        triggering: [ASCExample.ready(ids: ["↓com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE", state: "READY_TO_SUBMIT")])],
        nonTriggering: [ASCExample.ready(ids: ["com.acme.app.pro"], remote: [.purchase("com.acme.app.pro", type: "NON_CONSUMABLE")])])

    static func check(_ join: ReadinessJoin, into found: inout FindingCollector) {
        let anyApproved = join.remoteByID.values.contains { $0.state == "APPROVED" }
        for id in join.ids {
            guard let remote = join.remoteByID[id], let state = remote.state, ReadinessJoin.awaitingReview.contains(state) else { continue }
            let here = join.location(of: id)
            let there = join.drift.location(of: id)
            var why: String
            var fix: String
            var severity: Severity?
            switch state {
            case "READY_TO_SUBMIT":
                why = "the sandbox and TestFlight return it; the App Store does not until App Review approves it"
                fix = "submit it for review in App Store Connect"
                if let group = remote.group, !group.approved {
                    why += "; it is a first subscription of group \(Quote.bounded(group.name ?? "?")) (none there is approved), which App Review takes only with a new app version"
                    fix = "add it to the next app version (the version's In-App Purchases and Subscriptions section) and submit the version"
                } else if remote.group == nil, !anyApproved {
                    why += "; the app has no approved in-app purchase yet, and the first one goes to review only with a new app version"
                    fix = "add it to the next app version (the version's In-App Purchases and Subscriptions section) and submit the version"
                }
            case "PENDING_BINARY_APPROVAL":
                why = "approved, it waits for its app version's approval; the App Store returns it once the version is released"
                fix = "nothing to do but wait for the app version's review"
                severity = .info
            default:
                why = "the sandbox and TestFlight return it; the App Store will once App Review approves it"
                fix = "nothing to do but wait for review"
                severity = .info
            }
            found.add(at: here) {
                var finding = description.finding("\(Quote.bounded(id)) is \(state) in App Store Connect (\(there)): \(why)", at: here,
                                                  related: [RelatedLocation(there, "App Store Connect's state")], fix: SuggestedFix(fix))
                if let severity { finding.severity = severity }
                return finding
            }
        }
    }
}
