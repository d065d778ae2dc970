import ArgumentParser
import CodeGeneration
import Foundation
import IAPTool

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented iap.yml filled from what the folder holds: its catalogs, bundle ID and source folders.")

    @Argument(help: "The project folder (default: the current folder).")
    var folder = "."

    @Flag(help: "Replace an existing iap.yml.")
    var force = false

    @Flag(name: .customLong("stdout"), help: "Print the file instead of writing it.")
    var toStdout = false

    @Flag(name: .shortAndLong, help: "Also list on stderr the files the walks passed over, with why.")
    var verbose = false

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Terminal.cannotRun("\(folder): no such folder")
        }
        let starter = try Terminal.run { () throws(ToolFailure) in try StarterConfiguration.make(for: folder) }
        if verbose {
            for file in starter.passedOver { Terminal.err("iap: passed over \(file.path): \(file.reason)\n") }
        }
        if toStdout {
            Terminal.out(starter.text)
            return
        }
        let path = folder == "." ? Configuration.fileName : (folder as NSString).appendingPathComponent(Configuration.fileName)
        if FileManager.default.fileExists(atPath: path), !force {
            throw Terminal.cannotRun("\(path) exists; pass --force to replace it, or --stdout to see the starter")
        }
        do {
            _ = try OutputFile.write(starter.text, to: path)
        } catch {
            throw Terminal.cannotRun(error.description)
        }
        Terminal.err("iap: wrote \(path); \(starter.nextStep(configPath: path))\n")
    }
}
