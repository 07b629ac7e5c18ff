import Foundation

extension StubServer {
    /// The environment variable a served scope's base URL travels in to another
    /// process, unless the test names another: `URLSTUBS_BASE_URL`.
    public static let baseURLVariable = "URLSTUBS_BASE_URL"

    /// The environment to give another process (the app of a UI test, a
    /// subprocess) so that it talks to this server: `variable` set to ``baseURL``.
    ///
    /// ```swift
    /// // In an XCUITest: the app reads the variable and uses it as its API's base URL.
    /// app.launchEnvironment.merge(server.launchEnvironment()) { _, new in new }
    /// app.launch()
    /// ```
    public func launchEnvironment(_ variable: String = StubServer.baseURLVariable) -> [String: String] {
        [variable: baseURL.absoluteString]
    }
}
