import ArgumentParser
import Foundation
import IAPTool

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented iap.yml filled from what the folder holds: its catalogs, bundle ID and source folders.")

    @Argument(help: "The project folder (default: the current folder).")
    var folder = "."

    @Flag(help: "Replace an existing iap.yml.")
    var force = false

    @Flag(name: .customLong("stdout"), help: "Print the file instead of writing it.")
    var toStdout = false

    @Flag(name: .shortAndLong, help: "Also list on stderr the files the walks passed over, with why.")
    var verbose = false

    func run() {
        var job = InitJob(folder: folder)
        job.force = force
        job.toStdout = toStdout
        job.verbose = verbose
        Terminal.end(job.run())
    }
}
