import Foundation
import Testing
@testable import Raster

/// A damaged or hostile file, and what NavReel must say about it.
struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let kind: PNGError.Kind
    let says: String
    var limits = PNGLimits.default
    var testDescription: String { name }
}

private let good = ForgeImage.sweep(colorType: 6, bitDepth: 8, width: 40, height: 30)
private let goodFile = good.file()

/// Byte offset of the first chunk of a type in a file.
private func offset(of type: String, in file: [UInt8]) -> Int {
    var p = 8
    while p < file.count {
        let length = Int(file[p]) << 24 | Int(file[p + 1]) << 16 | Int(file[p + 2]) << 8 | Int(file[p + 3])
        if String(decoding: file[p + 4..<p + 8], as: UTF8.self) == type { return p }
        p += 12 + length
    }
    fatalError("no \(type)")
}

private func header(width: UInt32, height: UInt32, depth: UInt8 = 8, color: UInt8 = 6) -> [UInt8] {
    be32(width) + be32(height) + [depth, color, 0, 0, 0]
}

private func tinyFile(width: UInt32, height: UInt32, depth: UInt8 = 8, color: UInt8 = 6) -> [UInt8] {
    PNGStructure.signature + forgeChunk("IHDR", header(width: width, height: height, depth: depth, color: color))
        + forgeChunk("IDAT", forgeZlib([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])) + forgeChunk("IEND", [])
}

let badInputs: [BadInput] = {
    var cases: [BadInput] = []
    cases.append(BadInput(name: "empty file", bytes: [], kind: .notPNG, says: "empty"))
    cases.append(BadInput(name: "a JPEG", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 74, 70, 73, 70, 0, 1], kind: .notPNG, says: "JPEG"))
    cases.append(BadInput(name: "text", bytes: Array("hello, world".utf8), kind: .notPNG, says: "PNG signature"))
    cases.append(BadInput(name: "a Git LFS pointer", bytes: Array("version https://git-lfs.github.com/spec/v1\noid sha256:abc\n".utf8), kind: .notPNG, says: "git lfs pull"))
    cases.append(BadInput(name: "signature mangled by CRLF conversion",
                          bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D, 0x0A, 0x1A, 0x0A] + goodFile.dropFirst(8), kind: .notPNG, says: "damaged"))
    cases.append(BadInput(name: "only the signature", bytes: PNGStructure.signature, kind: .truncated, says: "IHDR"))
    cases.append(BadInput(name: "half a signature", bytes: Array(PNGStructure.signature.prefix(5)), kind: .truncated, says: "signature"))
    let idat = offset(of: "IDAT", in: goodFile)
    cases.append(BadInput(name: "truncated inside image data", bytes: Array(goodFile.prefix(idat + 100)), kind: .truncated, says: "IDAT"))
    cases.append(BadInput(name: "truncated inside a chunk header", bytes: Array(goodFile.prefix(idat + 5)), kind: .truncated, says: "chunk header"))
    cases.append(BadInput(name: "no IEND", bytes: Array(goodFile.dropLast(12)), kind: .truncated, says: "IEND"))
    var badCRC = goodFile
    badCRC[idat + 8 + 20] ^= 0x55  // a data byte of IDAT: the CRC no longer matches
    cases.append(BadInput(name: "bad CRC in image data", bytes: badCRC, kind: .corrupt, says: "CRC"))
    var textFile = good
    textFile.extraChunksBeforeData = [forgeChunk("tEXt", Array("Key".utf8) + [0] + Array("value".utf8), crc: 0xDEADBEEF)]
    cases.append(BadInput(name: "bad CRC in a text chunk", bytes: textFile.file(), kind: .corrupt, says: "CRC"))
    var badIHDRCRC = goodFile
    badIHDRCRC[8 + 8 + 12] ^= 1  // IHDR's last data byte (interlace 0 -> 1) changes; CRC stays
    cases.append(BadInput(name: "bad CRC in IHDR", bytes: badIHDRCRC, kind: .corrupt, says: "CRC"))
    var zlib = forgeZlib(good.rawData())
    zlib[3] ^= 0xFF  // LEN of the first stored block no longer matches NLEN
    cases.append(BadInput(name: "bad zlib data", bytes: good.file(idat: zlib), kind: .corrupt, says: "compressed data"))
    var adler = forgeZlib(good.rawData())
    adler[adler.count - 1] ^= 1
    cases.append(BadInput(name: "bad zlib checksum", bytes: good.file(idat: adler), kind: .corrupt, says: "compressed data"))
    let short = forgeZlib(Array(good.rawData().prefix(500)))
    cases.append(BadInput(name: "too little image data", bytes: good.file(idat: short), kind: .corrupt, says: "image data"))
    cases.append(BadInput(name: "zero width", bytes: tinyFile(width: 0, height: 10), kind: .corrupt, says: "0x10"))
    let absurd = tinyFile(width: 1_000_000, height: 1_000_000)
    cases.append(BadInput(name: "100-byte file declaring 1,000,000 x 1,000,000", bytes: absurd, kind: .tooLarge, says: "1000000x1000000"))
    cases.append(BadInput(name: "too many pixels within the side limit", bytes: tinyFile(width: 16_384, height: 16_385),
                          kind: .tooLarge, says: "16384 pixels a side"))
    cases.append(BadInput(name: "declared size far beyond the compressed data", bytes: tinyFile(width: 10_000, height: 10_000),
                          kind: .corrupt, says: "cannot hold 10000x10000"))
    cases.append(BadInput(name: "more than PNG allows", bytes: tinyFile(width: 0x8000_0000, height: 1), kind: .corrupt, says: "more than PNG allows"))
    cases.append(BadInput(name: "bit depth not allowed for the colour type", bytes: tinyFile(width: 2, height: 2, depth: 4, color: 2),
                          kind: .corrupt, says: "bit depth 4"))
    cases.append(BadInput(name: "unknown colour type", bytes: tinyFile(width: 2, height: 2, color: 5), kind: .corrupt, says: "colour type 5"))
    // A chunk that declares 100 MB in a small file: refused by its declared size alone.
    let huge = Array(goodFile.prefix(33)) + be32(100_000_000) + Array("tEXt".utf8) + Array(repeating: 65, count: 40)
    cases.append(BadInput(name: "chunk declaring 100 MB", bytes: huge, kind: .tooLarge, says: "over the limit"))
    var bigText = good
    bigText.extraChunksBeforeData = [forgeChunk("zTXt", Array(repeating: 66, count: 5000))]
    var small = PNGLimits.default
    small.maxChunkBytes = 4096
    cases.append(BadInput(name: "chunk over a lowered limit", bytes: bigText.file(), kind: .tooLarge, says: "4096", limits: small))
    var side = PNGLimits.default
    side.maxSide = 32
    cases.append(BadInput(name: "image over a lowered side limit", bytes: goodFile, kind: .tooLarge, says: "32 pixels a side", limits: side))
    let notIHDR = PNGStructure.signature + forgeChunk("IDAT", forgeZlib([0])) + forgeChunk("IEND", [])
    cases.append(BadInput(name: "first chunk is not IHDR", bytes: notIHDR, kind: .corrupt, says: "not IHDR"))
    var garbageType = goodFile
    garbageType[idat + 4] = 0x01
    cases.append(BadInput(name: "invalid chunk type", bytes: garbageType, kind: .corrupt, says: "invalid chunk type"))
    var badSide = good
    badSide.extraChunksAfterData = [forgeChunk("nrSD", [9] + forgeZlib([1, 2, 3]))]
    cases.append(BadInput(name: "side data of an unknown layout version", bytes: badSide.file(), kind: .corrupt, says: "version 9"))
    var bomb = good
    bomb.extraChunksAfterData = [forgeChunk("nrSD", [1] + forgeZlib(Array(repeating: 0, count: 60_000)))]
    var sideLimit = PNGLimits.default
    sideLimit.maxSideDataBytes = 50_000
    cases.append(BadInput(name: "side data inflating past its limit", bytes: bomb.file(), kind: .tooLarge, says: "50000", limits: sideLimit))
    var brokenSide = good
    brokenSide.extraChunksAfterData = [forgeChunk("nrSD", [1, 0x78, 0x01, 0x05])]
    cases.append(BadInput(name: "side data with bad zlib data", bytes: brokenSide.file(), kind: .corrupt, says: "zlib"))
    return cases
}()

@Suite("PNG bad input")
struct PNGBadInputTests {
    @Test("each bad input is refused with its own error, naming the source", arguments: badInputs)
    func refused(_ c: BadInput) {
        do {
            let decoded = try PNG.decode(c.bytes, source: "Baselines/x/0001.png", limits: c.limits)
            Issue.record("decoded a bad input as \(decoded.image.width)x\(decoded.image.height)")
        } catch {
            #expect(error.kind == c.kind, "\(error)")
            #expect(error.source == "Baselines/x/0001.png")
            #expect(error.description.lowercased().contains(c.says.lowercased()), "\(error)")
        }
    }

    @Test("IHDR's colour types and bit depths are those of the PNG specification's table 11.1, no more")
    func colourTypesAndDepths() {
        let table: [(color: UInt8, depths: [UInt8])] = [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]
        for color in UInt8(0)...8 {
            for depth: UInt8 in [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31, 32, 33, 64, 255] {
                let allowed = table.first { $0.color == color }?.depths.contains(depth) ?? false
                do {
                    _ = try PNG.decode(tinyFile(width: 2, height: 2, depth: depth, color: color), source: "t.png")
                    Issue.record("colour type \(color), depth \(depth) decoded its made-up data")
                } catch {
                    let header = error.message.contains("colour type \(color)") || error.message.contains("bit depth \(depth)")
                    // Allowed headers fail later, on the ten bytes of image data; others on IHDR.
                    #expect(header == !allowed, "colour type \(color), depth \(depth): \(error.message)")
                }
            }
        }
    }

    @Test("the good file the damaged ones come from decodes")
    func goodFileDecodes() throws {
        #expect(try PNG.decode(goodFile).image.pixels == good.expectedRGBA())
    }

    @Test("raising a limit lets through what the default refuses")
    func limitsCanBeRaised() throws {
        var forged = ForgeImage.sweep(colorType: 0, bitDepth: 1, width: 20_000, height: 2)
        forged.samples = forged.samples.map { $0.map { _ in [1] } }
        let file = forged.file()
        #expect(throws: PNGError.self) { try PNG.decode(file) }
        let decoded = try PNG.decode(file, limits: PNGLimits(maxSide: 20_000))
        #expect(decoded.image.width == 20_000)
        #expect(decoded.image[19_999, 1] == RGBA8(255, 255, 255))
    }

    @Test("every truncation of a valid file is refused, never crashes")
    func everyPrefixIsRefused() {
        let file = ForgeImage.sweep(colorType: 3, bitDepth: 4, width: 9, height: 5, interlaced: true, transparency: true).file()
        for n in 0..<file.count {
            #expect(throws: PNGError.self, "prefix of \(n) bytes") { try PNG.decode(Array(file.prefix(n))) }
        }
    }

    @Test("every single-bit flip is refused or decodes; none crashes")
    func bitFlipsNeverCrash() {
        let file = ForgeImage.sweep(colorType: 2, bitDepth: 8, width: 6, height: 4).file()
        var refused = 0
        for i in 0..<file.count {
            var damaged = file
            damaged[i] ^= 0x10
            do { _ = try PNG.decode(damaged) } catch { refused += 1 }
        }
        // Every byte is covered by the signature or a CRC, so every flip must be caught.
        #expect(refused == file.count)
    }

    @Test("reading a missing file or a directory names it")
    func fileErrors() {
        #expect { try PNG.read(path: "/nonexistent/navreel.png") } throws: { error in
            let e = error as! PNGError
            return e.kind == .io && e.source == "/nonexistent/navreel.png" && e.message.contains("No such file")
        }
        #expect { try PNG.read(path: "/tmp") } throws: { error in
            (error as! PNGError).message.contains("directory")
        }
    }
}

/// Inputs that are not regular files (an audit, 2026-11-29): a pipe was read as empty (its size
/// is not known before it is read), a named pipe with no writer blocked for ever, and a device
/// was read as empty too.
@Suite struct StreamInputTests {
    @Test("a pipe is read to its end; a named pipe without a writer reads as empty at once; a device is refused")
    func streams() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (input, output) = (fds[0], fds[1])
        let writer = Thread {
            bytes.withUnsafeBufferPointer { b in
                var done = 0
                while done < b.count { let n = write(output, b.baseAddress! + done, b.count - done); if n <= 0 { break }; done += n }
            }
            close(output)
        }
        writer.start()
        let read = try FileBytes.read(path: "/dev/fd/\(input)", limit: 1 << 20)
        close(input)
        #expect(read == bytes)
        // Over the limit: refused, not read without end.
        var more: [Int32] = [0, 0]
        try #require(pipe(&more) == 0)
        let (moreIn, moreOut) = (more[0], more[1])
        // 106,496 bytes: what is left when the reader stops fits the pipe's buffer, so the writer
        // ends before the read end is closed (a write after it would raise SIGPIPE).
        let done = DispatchSemaphore(value: 0)
        let second = Thread {
            let block = [UInt8](repeating: 1, count: 4096)
            for _ in 0..<26 { _ = block.withUnsafeBufferPointer { write(moreOut, $0.baseAddress!, $0.count) } }
            close(moreOut)
            done.signal()
        }
        second.start()
        #expect(throws: PNGError.self) { try FileBytes.read(path: "/dev/fd/\(moreIn)", limit: 100_000) }
        done.wait()
        close(moreIn)
        let fifo = NSTemporaryDirectory() + "navreel-fifo-\(getpid())"
        unlink(fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(try FileBytes.read(path: fifo, limit: 1 << 20).isEmpty)
        do {
            _ = try FileBytes.read(path: "/dev/zero", limit: 1 << 20)
            Issue.record("a device was read")
        } catch {
            #expect(error.message.contains("it is a device, not a file"), "\(error)")
        }
    }
}
