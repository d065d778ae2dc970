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

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Terminal.cannotRun("\(folder): no such folder")
        }
        let text = try Terminal.run { () throws(ToolFailure) in try StarterConfiguration.make(for: folder) }
        if toStdout {
            Terminal.out(text)
            return
        }
        let path = folder == "." ? Configuration.fileName : (folder as NSString).appendingPathComponent(Configuration.fileName)
        if FileManager.default.fileExists(atPath: path), !force {
            throw Terminal.cannotRun("\(path) exists; pass --force to replace it, or --stdout to see the starter")
        }
        do {
            _ = try OutputFile.write(text, to: path)
        } catch {
            throw Terminal.cannotRun(error.description)
        }
        Terminal.err("iap: wrote \(path); run iap check\n")
    }
}
