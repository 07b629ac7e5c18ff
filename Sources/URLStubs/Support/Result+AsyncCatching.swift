extension Result where Failure == any Error {
    /// The result of `body`: its value, or the error it throws.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
