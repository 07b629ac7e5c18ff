extension [String: String] {
    /// Whether a header field named `name` is present, compared case-insensitively.
    func containsField(_ name: String) -> Bool {
        keys.contains { $0.equalsIgnoringCase(name) }
    }
}
