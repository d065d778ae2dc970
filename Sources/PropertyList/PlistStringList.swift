/// A root `<array>` that holds only `<string>`s, as `PlistReader.readContent` gives it: the
/// strings and their positions, without a node per item. The plain list of product IDs is the
/// shape of the largest real catalogs, and a million nodes cost more than the strings.
public struct PlistStringList: Sendable, Equatable {
    /// Where the `<array>` starts.
    public var position: PlistPosition
    /// The strings in file order.
    public var strings: [String] = []
    /// Where each string's `<string>` starts (`positions[i]` is `strings[i]`'s).
    public var positions: [PlistPosition] = []

    public init(position: PlistPosition) {
        self.position = position
    }

    public var count: Int { strings.count }

    mutating func append(_ string: consuming String, at position: PlistPosition) {
        strings.append(string)
        positions.append(position)
    }

    /// The items as nodes, as the tree holds them.
    func nodes() -> [PlistNode] {
        zip(strings, positions).map { PlistNode(.string($0), at: $1) }
    }
}

/// What a property list holds, as `PlistReader.readContent` gives it.
public enum PlistContent: Sendable {
    /// A root `<array>` of `<string>`s (an empty one included).
    case strings(PlistStringList)
    /// Any other property list.
    case tree(PlistNode)

    /// The content as a tree, whatever its shape.
    public var tree: PlistNode {
        switch self {
        case .strings(let list): PlistNode(.array(list.nodes()), at: list.position)
        case .tree(let node): node
        }
    }
}
