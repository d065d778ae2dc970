import Support

/// SARIF 2.1.0, the format GitHub code scanning and other tools import: one run, the rules that
/// ran with their descriptions and help, each result with its location, related locations,
/// `partialFingerprints` (the baseline fingerprint) and the suggested fix where it is an exact edit. Written compact, on
/// one line, keys sorted.
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
        var uris: [String: String] = [:]
        func uri(_ path: String) -> String {
            if let known = uris[path] { return known }
            let made = Self.uri(path)
            uris[path] = made
            return made
        }
        // Compact: a SARIF file is read by tools, and GitHub caps uploads, so it carries no
        // indentation (a third of the pretty-printed size).
        var json = JSONWriter(capacity: result.findings.count * 400 + result.rules.count * 400 + 1024, style: .compact)
        json.openObject()
        json.key("$schema"); json.string("https://json.schemastore.org/sarif-2.1.0.json")
        json.key("runs")
        json.openArray()
        json.openObject()
        json.key("columnKind"); json.string("unicodeCodePoints")
        json.key("results")
        json.openArray()
        for (finding, fingerprint) in zip(result.findings, result.fingerprints) {
            json.openObject()
            // Only an edit is a SARIF fix: advice for a person ("choose a new product ID") would
            // be applied by tools as a deletion of the region.
            if let fix = finding.fix, fix.isEdit, let replacing = fix.replacing, let text = fix.replacement,
               let column = fix.replacingColumn, finding.location.line > 0 {
                json.key("fixes")
                json.openArray()
                json.openObject()
                json.key("artifactChanges")
                json.openArray()
                json.openObject()
                json.key("artifactLocation"); json.openObject(); json.key("uri"); json.string(uri(finding.location.path)); json.closeObject()
                json.key("replacements")
                json.openArray()
                json.openObject()
                json.key("deletedRegion")
                json.openObject()
                json.key("endColumn"); json.int(column + replacing.unicodeScalars.count)
                json.key("endLine"); json.int(finding.location.line)
                json.key("startColumn"); json.int(column)
                json.key("startLine"); json.int(finding.location.line)
                json.closeObject()
                json.key("insertedContent"); json.openObject(); json.key("text"); json.string(text); json.closeObject()
                json.closeObject()
                json.closeArray()
                json.closeObject()
                json.closeArray()
                json.key("description"); json.openObject(); json.key("text"); json.string(fix.message); json.closeObject()
                json.closeObject()
                json.closeArray()
            }
            json.key("level"); json.string(Self.level(finding.severity))
            json.key("locations")
            json.openArray()
            json.openObject()
            json.key("physicalLocation"); Self.physical(finding.location, uri(finding.location.path), &json)
            json.closeObject()
            json.closeArray()
            json.key("message"); json.openObject(); json.key("text"); json.string(finding.message); json.closeObject()
            json.key("partialFingerprints"); json.openObject(); json.key("iapFingerprint/v1"); json.string(fingerprint); json.closeObject()
            if !finding.related.isEmpty {
                json.key("relatedLocations")
                json.openArray()
                for (i, related) in finding.related.enumerated() {
                    json.openObject()
                    json.key("id"); json.int(i + 1)
                    json.key("message"); json.openObject(); json.key("text"); json.string(related.message); json.closeObject()
                    json.key("physicalLocation"); Self.physical(related.location, uri(related.location.path), &json)
                    json.closeObject()
                }
                json.closeArray()
            }
            json.key("ruleId"); json.string(finding.ruleID)
            if let index = ruleIndex[finding.ruleID] { json.key("ruleIndex"); json.int(index) }
            json.closeObject()
        }
        json.closeArray()
        json.key("tool")
        json.openObject()
        json.key("driver")
        json.openObject()
        json.key("informationUri"); json.string(result.tool.informationURI)
        json.key("name"); json.string(result.tool.name)
        json.key("rules")
        json.openArray()
        for rule in result.rules {
            json.openObject()
            json.key("defaultConfiguration"); json.openObject(); json.key("level"); json.string(Self.level(rule.severity)); json.closeObject()
            json.key("fullDescription"); json.openObject(); json.key("text"); json.string(rule.rationale); json.closeObject()
            json.key("help"); json.openObject(); json.key("text"); json.string(rule.rationale); json.closeObject()
            json.key("helpUri"); json.string(rule.helpURI)
            json.key("id"); json.string(rule.id)
            json.key("name"); json.string(Self.pascalCase(rule.id))
            json.key("shortDescription"); json.openObject(); json.key("text"); json.string(rule.name); json.closeObject()
            json.closeObject()
        }
        json.closeArray()
        json.key("semanticVersion"); json.string(result.tool.version)
        json.key("version"); json.string(result.tool.version)
        json.closeObject()
        json.closeObject()
        json.closeObject()
        json.closeArray()
        json.key("version"); json.string("2.1.0")
        json.closeObject()
        return json.finish()
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func physical(_ location: SourceLocation, _ uri: String, _ json: inout JSONWriter) {
        json.openObject()
        json.key("artifactLocation"); json.openObject(); json.key("uri"); json.string(uri); json.closeObject()
        if location.line > 0 {
            json.key("region")
            _ = region(location, &json)
        }
        json.closeObject()
    }

    /// Writes the region of a location, or nothing (returning false) when it has no line.
    static func region(_ location: SourceLocation, _ json: inout JSONWriter) -> Bool {
        guard location.line > 0 else { return false }
        json.openObject()
        if location.column > 0 { json.key("startColumn"); json.int(location.column) }
        json.key("startLine"); json.int(location.line)
        json.closeObject()
        return true
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
