import Support

extension ResultSlots where Value == [Diagnostic] {
    /// Every slot's findings, slot by slot.
    public func all() -> [Diagnostic] { values().flatMap { $0 } }
}
