/// SARIF 2.1.0, the format GitHub code scanning and other tools import: one run, the rules that
/// ran with their descriptions and help, each result with its location, related locations,
/// `partialFingerprints` (the baseline fingerprint) and the suggested fix.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static let summary = "SARIF 2.1.0 for GitHub code scanning and other static-analysis viewers"
    public static let defaultFileName = "iap.sarif"
    /// The key of our fingerprint in `partialFingerprints`.
    public static let fingerprintKey = "iapFingerprint/v1"

    public init() {}

    public func report(_ result: RunResult, options: ReportOptions) -> String {
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in result.rules.enumerated() where ruleIndex[rule.id] == nil { ruleIndex[rule.id] = i }
        let rules: [JSONValue] = result.rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("name", .string(Self.pascalCase(rule.id))),
                ("shortDescription", .object([("text", .string(rule.name))])),
                ("fullDescription", .object([("text", .string(rule.rationale))])),
                ("help", .object([("text", .string(rule.rationale))])),
                ("helpUri", .string(rule.helpURI)),
                ("defaultConfiguration", .object([("level", .string(Self.level(rule.severity)))])),
            ])
        }
        var results: [JSONValue] = []
        results.reserveCapacity(result.findings.count)
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(finding.ruleID)),
                ("level", .string(Self.level(finding.severity))),
                ("message", .object([("text", .string(finding.message))])),
                ("locations", .array([.object([("physicalLocation", Self.physical(finding.location))])])),
                ("partialFingerprints", .object([(Self.fingerprintKey, .string(fingerprint))])),
            ]
            if let index = ruleIndex[finding.ruleID] { members.append(("ruleIndex", .int(index))) }
            if !finding.related.isEmpty {
                members.append(("relatedLocations", .array(finding.related.enumerated().map { i, related in
                    .object([("id", .int(i + 1)), ("physicalLocation", Self.physical(related.location)),
                             ("message", .object([("text", .string(related.message))]))])
                })))
            }
            if let fix = finding.fix {
                var replacement: [(String, JSONValue)] = [("deletedRegion", Self.region(finding.location) ?? .object([("startLine", .int(1))]))]
                if let text = fix.replacement { replacement.append(("insertedContent", .object([("text", .string(text))]))) }
                members.append(("fixes", .array([.object([
                    ("description", .object([("text", .string(fix.message))])),
                    ("artifactChanges", .array([.object([
                        ("artifactLocation", .object([("uri", .string(Self.uri(finding.location.path)))])),
                        ("replacements", .array([.object(replacement)])),
                    ])])),
                ])])))
            }
            results.append(.object(members))
        }
        let run: JSONValue = .object([
            ("tool", .object([("driver", .object([
                ("name", .string(result.tool.name)),
                ("version", .string(result.tool.version)),
                ("semanticVersion", .string(result.tool.version)),
                ("informationUri", .string(result.tool.informationURI)),
                ("rules", .array(rules)),
            ]))])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ])
        return JSONValue.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ]).rendered()
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func physical(_ location: SourceLocation) -> JSONValue {
        var members: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(uri(location.path)))]))]
        if let region = region(location) { members.append(("region", region)) }
        return .object(members)
    }

    static func region(_ location: SourceLocation) -> JSONValue? {
        guard location.line > 0 else { return nil }
        var members: [(String, JSONValue)] = [("startLine", .int(location.line))]
        if location.column > 0 { members.append(("startColumn", .int(location.column))) }
        return .object(members)
    }

    /// A relative URI reference for a path: `./` dropped, and characters a URI cannot hold
    /// percent-encoded.
    static func uri(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        var out = ""
        for byte in p.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "/-._~".contains(c) {
                out.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// `duplicate-id` → `DuplicateId`, SARIF's recommended form of a rule's name.
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
