import Foundation

/// A DEFLATE decoder (RFC 1951) with the zlib (RFC 1950) and gzip (RFC 1952)
/// wrappers, so that compressed bodies can be redacted and scanned without a
/// dependency.
///
/// It stops at `limit` output bytes: a body that inflates beyond it cannot be
/// decoded, and the functions that recover what a reader could (`…Recovering`)
/// give the first `limit` bytes.
enum Inflater {
    /// Why a stream could not be inflated.
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// The most bytes any one body may inflate to.
    static let limit = 64 * 1024 * 1024

    /// The bytes of the gzip stream `data` (every member, concatenated).
    static func gunzip(_ data: Data) throws(Failure) -> Data {
        var output: [UInt8] = []
        try gunzipMembers([UInt8](data), into: &output)
        return Data(output)
    }

    /// What a reader can recover from the gzip data `data`: every member, as far
    /// as it inflates, up to where a member is cut short, broken, or followed by
    /// bytes that are not another member (`gzip -d` recovers as much).
    static func gunzipRecovering(_ data: Data) -> Data {
        var output: [UInt8] = []
        _ = try? gunzipMembers([UInt8](data), into: &output)
        return Data(output)
    }

    /// Inflates the gzip members of `bytes` into `output`, which keeps what came
    /// before a failure.
    private static func gunzipMembers(_ bytes: [UInt8], into output: inout [UInt8]) throws(Failure) {
        var offset = 0
        repeat {
            guard bytes.count - offset >= 18, bytes[offset] == 0x1F, bytes[offset + 1] == 0x8B else {
                throw Failure(reason: "it is not a gzip stream")
            }
            guard bytes[offset + 2] == 8 else { throw Failure(reason: "its gzip compression method is not deflate") }
            let flags = bytes[offset + 3]
            var position = offset + 10
            if flags & 0x04 != 0 { // FEXTRA: a length of two bytes, least significant first, then the field.
                guard position + 2 <= bytes.count else { throw Failure(reason: "its gzip header is cut short") }
                position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
            }
            for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 { // FNAME, FCOMMENT
                while position < bytes.count, bytes[position] != 0 { position += 1 }
                position += 1
            }
            if flags & 0x02 != 0 { position += 2 } // FHCRC
            guard position <= bytes.count else { throw Failure(reason: "its gzip header is cut short") }
            var reader = BitReader(bytes: bytes, position: position)
            try inflate(&reader, into: &output)
            offset = reader.alignedPosition + 8 // CRC32 and ISIZE
            guard offset <= bytes.count else { throw Failure(reason: "its gzip trailer is cut short") }
        } while offset < bytes.count && bytes[offset...].contains(where: { $0 != 0 })
    }

    /// Where the DEFLATE data starts in `bytes` when they open with a zlib header
    /// (RFC 1950: method 8, and check bits that make the first two bytes a multiple
    /// of 31): 2, or 6 after a preset dictionary's id. `nil` when they do not.
    static func zlibDataOffset(_ bytes: some Collection<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        guard let method = iterator.next(), let flags = iterator.next(),
              method & 0x0F == 8, (Int(method) << 8 | Int(flags)) % 31 == 0 else { return nil }
        return flags & 0x20 == 0 ? 2 : 6
    }

    /// What a reader can recover from `data` read as raw DEFLATE data from byte
    /// `position`: as far as it inflates, whether or not it ends well.
    static func inflateRecovering(_ data: Data, from position: Int) -> Data {
        var output: [UInt8] = []
        var reader = BitReader(bytes: [UInt8](data), position: position)
        _ = try? inflate(&reader, into: &output)
        return Data(output)
    }

    /// The bytes of `data` read as raw DEFLATE data that ends well at its last
    /// byte, or as zlib data that does (its checksum the last four bytes): `nil`
    /// when it is neither. Text is seldom either by chance, where a stream that
    /// ends early is common (`{` and a line break end a fixed-code block).
    static func inflateWhole(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        if bytes.count >= 6, zlibDataOffset(bytes) == 2 {
            var output: [UInt8] = []
            var reader = BitReader(bytes: bytes, position: 2)
            if (try? inflate(&reader, into: &output)) != nil, reader.alignedPosition + 4 == bytes.count {
                return Data(output)
            }
        }
        var output: [UInt8] = []
        var reader = BitReader(bytes: bytes, position: 0)
        guard (try? inflate(&reader, into: &output)) != nil, reader.alignedPosition == bytes.count else { return nil }
        return Data(output)
    }

    /// The bytes of the zlib stream `data`, or of `data` as raw DEFLATE when it has
    /// no zlib header (servers send both as `deflate`).
    static func inflateZlibOrRaw(_ data: Data) throws(Failure) -> Data {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        if zlibDataOffset(bytes) == 2 {
            var reader = BitReader(bytes: bytes, position: 2)
            if (try? inflate(&reader, into: &output)) != nil {
                return Data(output)
            }
            output = []
        }
        var reader = BitReader(bytes: bytes, position: 0)
        try inflate(&reader, into: &output)
        return Data(output)
    }

    // MARK: - DEFLATE

    struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var bitBuffer: UInt32 = 0
        var bitCount = 0

        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        mutating func bits(_ count: Int) throws(Failure) -> Int {
            while bitCount < count {
                guard position < bytes.count else { throw Failure(reason: "its compressed data is cut short") }
                bitBuffer |= UInt32(bytes[position]) << UInt32(bitCount)
                position += 1
                bitCount += 8
            }
            let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
            bitBuffer >>= UInt32(count)
            bitCount -= count
            return value
        }

        /// Drops the bits left in the current byte.
        mutating func alignToByte() {
            bitBuffer = 0
            bitCount = 0
        }

        /// The position of the first byte not yet read into the bit buffer's whole bytes.
        var alignedPosition: Int {
            position - bitCount / 8
        }
    }

    /// A canonical Huffman code: symbol counts per length and symbols in order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        /// The code of `lengths`, or a failure when they over-subscribe it.
        static func make(lengths: [Int]) throws(Failure) -> Huffman {
            var counts = [Int](repeating: 0, count: 16)
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1..<16 {
                left <<= 1
                left -= counts[length]
                guard left >= 0 else { throw Failure(reason: "its compressed data has an invalid code") }
            }
            return Huffman(lengths: lengths)
        }

        /// The code of `lengths`, which must not over-subscribe it.
        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - count < first {
                    return symbols[index + (code - first)]
                }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw Failure(reason: "its compressed data has an invalid code")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static func inflate(_ reader: inout BitReader, into output: inout [UInt8]) throws(Failure) {
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let start = reader.position
                guard start + 4 <= reader.bytes.count else { throw Failure(reason: "its compressed data is cut short") }
                let length = Int(reader.bytes[start]) | Int(reader.bytes[start + 1]) << 8
                let check = Int(reader.bytes[start + 2]) | Int(reader.bytes[start + 3]) << 8
                guard length == ~check & 0xFFFF else { throw Failure(reason: "its compressed data has a bad stored block") }
                guard start + 4 + length <= reader.bytes.count else { throw Failure(reason: "its compressed data is cut short") }
                guard output.count + length <= limit else { throw Failure(reason: "it inflates to more than \(limit) bytes") }
                output += reader.bytes[(start + 4)..<(start + 4 + length)]
                reader.position = start + 4 + length
            case 1:
                try inflateBlock(&reader, into: &output, literals: fixedLiterals, distances: fixedDistances)
            case 2:
                let literalCount = try reader.bits(5) + 257
                let distanceCount = try reader.bits(5) + 1
                let codeCount = try reader.bits(4) + 4
                guard literalCount <= 286, distanceCount <= 30 else { throw Failure(reason: "its compressed data has an invalid code") }
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codeCount {
                    codeLengths[codeLengthOrder[index]] = try reader.bits(3)
                }
                let codeLengthCode = try Huffman.make(lengths: codeLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try codeLengthCode.decode(&reader)
                    switch symbol {
                    case 0..<16:
                        lengths.append(symbol)
                    case 16:
                        guard let previous = lengths.last else { throw Failure(reason: "its compressed data has an invalid code") }
                        lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
                    case 17:
                        lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
                    default:
                        lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
                    }
                }
                guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else {
                    throw Failure(reason: "its compressed data has an invalid code")
                }
                let literals = try Huffman.make(lengths: Array(lengths[..<literalCount]))
                let distances = try Huffman.make(lengths: Array(lengths[literalCount...]))
                try inflateBlock(&reader, into: &output, literals: literals, distances: distances)
            default:
                throw Failure(reason: "its compressed data has an invalid block type")
            }
        }
    }

    static let fixedLiterals: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for index in 144..<256 { lengths[index] = 9 }
        for index in 256..<280 { lengths[index] = 7 }
        return Huffman(lengths: lengths)
    }()

    static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))

    static func inflateBlock(_ reader: inout BitReader, into output: inout [UInt8], literals: Huffman, distances: Huffman) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                output.append(UInt8(symbol))
                guard output.count <= limit else { throw Failure(reason: "it inflates to more than \(limit) bytes") }
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw Failure(reason: "its compressed data has an invalid length") }
                let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
                let distanceSymbol = try distances.decode(&reader)
                guard distanceSymbol < 30 else { throw Failure(reason: "its compressed data has an invalid distance") }
                let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Failure(reason: "its compressed data refers back before its start") }
                guard output.count + length <= limit else { throw Failure(reason: "it inflates to more than \(limit) bytes") }
                let start = output.count - distance
                for offset in 0..<length {
                    output.append(output[start + offset])
                }
            }
        }
    }
}
