// The start-up peer: a Swift program that only imports Foundation and prints a line.
import Foundation

print("hello \(ProcessInfo.processInfo.processIdentifier > 0)")
