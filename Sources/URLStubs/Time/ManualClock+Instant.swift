extension ManualClock {
    /// A point in a ``ManualClock``'s time: how far the clock has been advanced since
    /// it was created.
    ///
    /// Every manual clock starts at ``zero``; its instants are plain offsets from that
    /// start, so tests can name them exactly: `.zero.advanced(by: .seconds(3))`, or
    /// `Instant(offset: .seconds(3))`. Instants of two different clocks compare as
    /// their offsets do: nothing ties an instant to the clock it came from.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// The type of the distance between two instants: `Swift.Duration`.
        public typealias Duration = Swift.Duration

        /// How far this instant lies after the start of its clock (negative before it).
        public let offset: Duration

        /// Creates the instant `offset` after the start of a clock.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The start of every manual clock: an offset of zero.
        public static var zero: Instant {
            Instant(offset: .zero)
        }

        /// The instant `duration` after this one (before it, when `duration` is negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`: negative when `other` comes first.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// The instant `rhs` after `lhs`, as `lhs.advanced(by: rhs)`.
        public static func + (lhs: Instant, rhs: Duration) -> Instant {
            lhs.advanced(by: rhs)
        }

        /// The instant `rhs` before `lhs`, as `lhs.advanced(by: .zero - rhs)`.
        public static func - (lhs: Instant, rhs: Duration) -> Instant {
            Instant(offset: lhs.offset - rhs)
        }

        /// The duration from `rhs` to `lhs`, as `rhs.duration(to: lhs)`.
        public static func - (lhs: Instant, rhs: Instant) -> Duration {
            lhs.offset - rhs.offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's start, as in `ManualClock.Instant(+3.0 seconds)`.
        public var description: String {
            "ManualClock.Instant(\(offset < .zero ? "" : "+")\(offset))"
        }
    }
}
