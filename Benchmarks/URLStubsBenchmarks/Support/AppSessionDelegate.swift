#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A session delegate that implements nothing, standing for the one many apps give
/// their session (for authentication challenges or metrics): its presence alone
/// changes how a task's delegate is found, which is what the delegated rows
/// measure.
final class AppSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {}
