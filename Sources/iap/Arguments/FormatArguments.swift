import ArgumentParser
import IAPTool

/// A command's `--format` choices: names from the one vocabulary (`FormatName`), so a name means
/// the same form in every command, and an alias an earlier release took (`md`) is still read.
/// Help and errors list the canonical names.
public protocol FormatArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension FormatArgument {
    public init?(argument: String) {
        self.init(rawValue: FormatName.canonical(argument))
    }
}

extension ListJob.Format: FormatArgument {}
extension ReportJob.Format: FormatArgument {}
extension RuleListing.Format: FormatArgument {}
extension TableFormat: FormatArgument {}
extension PlistJob.PrintFormat: FormatArgument {}
