import AppStoreConnect
import CatalogTool
import Foundation
import Support

/// `iap asc …`: App Store Connect through its API, with a key from the environment.
public enum ASCJob {
    /// The variable that points the client at another server (a test server on 127.0.0.1).
    public static let urlVariable = "IAP_ASC_URL"

    /// `iap asc pull --app APP --snapshot FILE`: the app's in-app purchases and subscriptions,
    /// written as a snapshot later commands read offline.
    public static func pull(app: String, snapshot path: String, timeout: Double, environment: [String: String],
                            transport: (any HTTPTransport)? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        var client: ASCClient
        switch makeClient(environment: environment, timeout: timeout, transport: transport) {
        case .success(let made):
            client = made.client
            for warning in made.warnings { outcome.stderr += "iap: warning: \(warning)\n" }
        case .failure(let failure):
            outcome.fail(failure)
            return outcome
        }
        let snapshot: ASCSnapshot
        do {
            snapshot = try SnapshotPull().pull(app: app, client: &client)
        } catch {
            outcome.fail(.cannotRun(error.description))
            return outcome
        }
        let subscriptions = snapshot.subscriptionGroups.reduce(0) { $0 + $1.subscriptions.count }
        let appName = [snapshot.app.name.map { "'\($0)'" }, snapshot.app.bundleId, "Apple ID \(snapshot.app.id)"].compactMap { $0 }.joined(separator: ", ")
        outcome.stderr += "iap: pulled \(plural(snapshot.inAppPurchases.count, "in-app purchase")) and "
            + "\(plural(subscriptions, "subscription")) in \(plural(snapshot.subscriptionGroups.count, "group")) of \(appName) "
            + "in \(plural(client.requestCount, "request"))\n"
        outcome.files.append(OutputContent(path: path, content: snapshot.encoded(), note: "iap: wrote \(path)\n", label: "the snapshot"))
        return outcome
    }

    static func makeClient(environment: [String: String], timeout: Double,
                           transport: (any HTTPTransport)?) -> Result<(client: ASCClient, warnings: [String]), ToolFailure> {
        let loaded: APIKey.Loaded
        do {
            loaded = try APIKey.load(from: environment)
        } catch {
            return .failure(.cannotRun(error.description))
        }
        var baseURL = ASCClient.productionURL
        if let text = environment[urlVariable], !text.isEmpty {
            guard let url = URL(string: text) else { return .failure(.cannotRun("\(urlVariable) is not a URL: \(text)")) }
            baseURL = url
        }
        do {
            let client = try ASCClient(key: loaded.key, baseURL: baseURL,
                                       transport: transport ?? URLSessionTransport(timeout: timeout))
            return .success((client, loaded.warnings))
        } catch {
            return .failure(.cannotRun("\(urlVariable): \(error.description)"))
        }
    }
}
