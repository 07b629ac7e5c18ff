#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation
import Testing
@testable import URLStubs

/// Reading Foundation's stored properties on Linux by reflection, and going
/// straight to where a field was found before.
@Suite("Foundation's fields, read by reflection", .timeLimit(.minutes(1)))
struct FoundationInternalsTests {
    /// A class with a field of its own and one inherited, optional or not.
    private class Base {
        let first = "first"
        let inherited: String
        let maybe: Int?

        init(inherited: String, maybe: Int?) {
            self.inherited = inherited
            self.maybe = maybe
        }
    }

    /// A subclass, so that the inherited field is one superclass up.
    private final class Derived: Base {
        let own: Int

        init(own: Int, inherited: String) {
            self.own = own
            super.init(inherited: inherited, maybe: nil)
        }
    }

    @Test("each task's work queue is its own, read again from where the first read found it: the place is kept, never the value")
    func workQueuesOfTwoTasks() throws {
        let session = URLSession(configuration: .stubbed)
        defer { session.invalidateAndCancel() }
        let tasks = (0..<2).map { session.dataTask(with: URL(string: "https://api.example.com/\($0)")!) }
        let first = try tasks.map { try #require(FoundationInternals.workQueue(of: $0)) }
        let again = try tasks.map { try #require(FoundationInternals.workQueue(of: $0)) }
        #expect(first[0] !== first[1])
        #expect(again[0] === first[0])
        #expect(again[1] === first[1])
    }

    @Test("an inherited field is found from the subclass, a superclass up, and from the class itself, each read twice with the same result")
    func inheritedField() {
        let derived = Derived(own: 7, inherited: "from the subclass")
        let base = Base(inherited: "from the base", maybe: 3)
        for _ in 0..<2 {
            #expect(FoundationInternals.field("inherited", of: derived) as? String == "from the subclass")
            #expect(FoundationInternals.field("own", of: derived) as? Int == 7)
            #expect(FoundationInternals.field("inherited", of: base) as? String == "from the base")
        }
    }

    @Test("a field is read from where it was first found: its class, the superclasses up and the child's offset there, kept per class")
    func placesAreKept() {
        /// A class of this test's own, so that no other test has read its fields.
        final class Fresh: Base {
            let extra = 1
            init() {
                super.init(inherited: "fresh", maybe: 5)
            }
        }
        #expect(FoundationInternals.place(of: "maybe", in: Fresh.self) == nil)
        #expect(FoundationInternals.field("maybe", of: Fresh()) as? Int == 5)
        #expect(FoundationInternals.place(of: "maybe", in: Fresh.self)! == (depth: 1, offset: 2))
        #expect(FoundationInternals.field("maybe", of: Fresh()) as? Int == 5)
        #expect(FoundationInternals.place(of: "absent", in: Fresh.self) == nil)
    }

    @Test("an optional field reads as its value, or nil; a field the class does not have reads as nil, asked twice")
    func optionalAndMissingFields() {
        let derived = Derived(own: 1, inherited: "x")
        let base = Base(inherited: "y", maybe: 3)
        for _ in 0..<2 {
            #expect(FoundationInternals.field("maybe", of: base) as? Int == 3)
            #expect(FoundationInternals.field("maybe", of: derived) == nil)
            #expect(FoundationInternals.field("absent", of: base) == nil)
        }
    }
}
#endif
