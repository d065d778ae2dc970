import CLibXML2
import Foundation

/// Building the tree from the events: leaves, containers, and what each is checked for.
extension SAXState {
    // MARK: Building

    /// The leaf's whole text, moved out of `singleChunk` (no copy, no reference counting).
    mutating func decodedText() -> String {
        switch chunks {
        case 0: ""
        case 1: singleChunk.take()!
        default: text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
    }

    mutating func finishLeaf(_ tag: PlistTag) {
        let value: PlistValue
        do throws(PlistScalarError) {
            switch tag {
            case .key:
                let key = decodedText()
                setKey(key, at: leafPosition)
                return
            case .string:
                if depth == 1, keptStrings {
                    strings.append(decodedText(), at: leafPosition)
                    return
                }
                value = .string(decodedText())
            case .integer: value = .integer(try PlistScalars.integer(decodedText()))
            case .real: value = .real(try PlistScalars.real(decodedText()))
            case .date: value = .date(try PlistScalars.date(decodedText()))
            case .data: value = .data(try PlistScalars.data(decodedText()))
            case .true, .false:
                if decodedText().utf8.contains(where: { !PlistScalars.isXMLWhitespace($0) }) {
                    fail(.invalidValue, "<\(tag.name)/> must be empty", at: leafPosition)
                    return
                }
                value = .bool(tag == .true)
            case .plist, .dict, .array:
                return
            }
        } catch {
            fail(.invalidValue, error.message, at: leafPosition)
            return
        }
        add(PlistNode(value, at: leafPosition))
    }

    mutating func setKey(_ key: String, at position: PlistPosition) {
        guard depth > 0 else { return }
        if let index = current.keyIndex {
            if let previous = index[key] {
                duplicate(key, first: current.entries[previous].keyPosition, at: position)
                return
            }
        } else if let previous = current.entries.firstIndex(where: { $0.key == key }) {
            duplicate(key, first: current.entries[previous].keyPosition, at: position)
            return
        }
        current.pendingKey = key
        current.pendingKeyPosition = position
    }

    mutating func duplicate(_ key: String, first: PlistPosition, at position: PlistPosition) {
        fail(.duplicateKey, "duplicate key '\(key)' in one <dict>: first at line \(first.line), again at line \(position.line)",
             at: position)
    }

    mutating func add(_ node: consuming PlistNode) {
        guard depth > 0 else {
            root = consume node
            return
        }
        if current.isDictionary {
            guard let key = current.pendingKey.take() else { return }
            current.entries.append(.init(key: key, keyPosition: current.pendingKeyPosition, value: consume node))
            let count = current.entries.count
            if current.keyIndex != nil {
                current.keyIndex![key] = count - 1
            } else if count == 16 {
                var index = [String: Int](minimumCapacity: 64)
                for (i, entry) in current.entries.enumerated() { index[entry.key] = i }
                current.keyIndex = index
            }
        } else {
            if depth == 1, keptStrings {
                // Not a list of strings after all: what was kept becomes nodes.
                keptStrings = false
                var kept = PlistStringList(position: .unknown)
                swap(&kept, &strings)
                current.items = kept.nodes()
            }
            current.items.append(consume node)
        }
    }

    /// The document read: a root array of strings as they were kept, any other root as a tree.
    func finish() throws(PlistError) -> PlistContent {
        if keptStrings { return .strings(strings) }
        return .tree(try finishTree())
    }

    func finishTree() throws(PlistError) -> PlistNode {
        if let root { return root }
        if sawPlistElement {
            throw PlistError(.invalidStructure, "the <plist> element holds no value")
        }
        throw PlistError(.invalidStructure, "no property-list value found")
    }
}
