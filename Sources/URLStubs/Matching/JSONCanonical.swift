import Foundation

/// JSON in one canonical spelling: sorted keys, no insignificant whitespace.
enum JSONCanonical {
    /// `json` respelled canonically, or `nil` when it is not JSON.
    static func data(_ json: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else {
            return nil
        }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }
}
