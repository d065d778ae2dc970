import ArgumentParser
import Foundation

/// Checks of option values that a type alone does not make: each bad value is a usage error
/// (exit 64) that says what is wrong, instead of a run on a value that cannot be meant.
enum ArgumentCheck {
    /// `--bundle-id`: reverse-DNS letters, digits, `-` and `.`, no empty segment.
    static func bundleID(_ text: String) throws -> String {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".") }
        guard !text.isEmpty, allowed, !segments.contains(where: \.isEmpty) else {
            throw ValidationError("not a bundle ID: use letters, digits, '-' and '.', as in com.example.app")
        }
        return text
    }

    /// `--require-locale`: a language Foundation knows, with an optional script and region
    /// (`en-US`, `de_DE`, `zh-Hans`, `pt-BR`).
    static func locale(_ text: String) throws -> String {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
        let regions = Set(Locale.Region.isoRegions.map(\.identifier))
        var valid = !parts.isEmpty && parts.count <= 3 && languages.contains(parts[0].lowercased())
        for part in parts.dropFirst() where valid {
            switch part.count {
            case 2: valid = regions.contains(part.uppercased())
            case 3: valid = part.allSatisfy(\.isNumber)   // a UN M.49 region such as 419
            case 4: valid = part.allSatisfy(\.isLetter)   // a script such as Hans
            default: valid = false
            }
        }
        guard valid else { throw ValidationError("not a locale: use a language and region, as in en-US, de-DE or zh-Hans") }
        return text
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
