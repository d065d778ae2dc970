import ArgumentParser
import Foundation
import IAPTool

/// Checks of option values that a type alone does not make: each bad value is a usage error
/// (exit 64) that says what is wrong, instead of a run on a value that cannot be meant.
enum ArgumentCheck {
    /// `--bundle-id` (`ValueCheck.bundleIDProblem`).
    static func bundleID(_ text: String) throws -> String {
        if let problem = ValueCheck.bundleIDProblem(text) { throw ValidationError(problem) }
        return text
    }

    /// A storefront code (`USA`, `jp`): its alpha-3 code.
    static func storefront(_ text: String) throws -> String {
        guard let storefront = ValueCheck.storefront(text) else {
            throw ValidationError("unknown storefront '\(text.prefix(20))'; `iap storefronts` lists them")
        }
        return storefront
    }

    /// `--require-locale` (`ValueCheck.localeProblem`).
    static func locale(_ text: String) throws -> String {
        if let problem = ValueCheck.localeProblem(text) { throw ValidationError(problem) }
        return text
    }

    /// `--jobs N`: N must be positive.
    static func jobs(_ jobs: Int?, of what: String) throws {
        if let jobs, jobs <= 0 { throw ValidationError("--jobs must be a positive number of \(what) at once (found \(jobs))") }
    }

    /// Long options that take a number: `--display-name-limit -5` is read as the value -5 (and
    /// refused as not positive), not as an unknown option `-5` with the value missing.
    static let numericOptions: Set<String> = ["--display-name-limit", "--description-limit", "--jobs"]

    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if numericOptions.contains(argument), i + 1 < arguments.count,
               arguments[i + 1].count > 1, arguments[i + 1].hasPrefix("-"), arguments[i + 1].dropFirst().allSatisfy(\.isNumber) {
                out.append(argument + "=" + arguments[i + 1])
                i += 2
                continue
            }
            out.append(argument)
            i += 1
        }
        return out
    }
}
