import CPNG
import Foundation
import Testing
@testable import Raster

/// Which buffers are asked for in 2 MiB pages (issue 17): 4 to 64 MiB, page-aligned inside the
/// buffer; larger ones stay in 4 KB pages (cpng.c, `nr_huge_advice_range`, says why).
@Suite("Huge-page advice")
struct HugePageAdviceTests {
    static func range(_ address: UInt, _ length: Int) -> (Int32, UInt, UInt) {
        var start: UInt = 0, end: UInt = 0
        let ok = nr_huge_advice_range(UnsafeRawPointer(bitPattern: address), length, &start, &end)
        return (ok, start, end)
    }

    @Test func bufferSizesAdvised() {
        let mib = 1 << 20
        let base: UInt = 0x7000_0000_0000
        #expect(Self.range(base, 4 * mib - 1).0 == 0)
        #expect(Self.range(base, 4 * mib) == (1, base, base + UInt(4 * mib)))
        #expect(Self.range(base, 64 * mib) == (1, base, base + UInt(64 * mib)))
        #expect(Self.range(base, 64 * mib + 1).0 == 0, "a 37 MP image's 148 MB stays in 4 KB pages")
        #expect(Self.range(base, 148 * mib).0 == 0)
        // Only whole 4 KB pages inside the buffer.
        #expect(Self.range(base + 16, 8 * mib) == (1, base + 4096, base + UInt(8 * mib)))
        #expect(Self.range(0, 8 * mib).0 == 0, "no buffer")
    }

    #if os(Linux)
    /// The kernel's own record of the advice: the mapping's VmFlags in /proc/self/smaps carry
    /// "hg" once MADV_HUGEPAGE is given. An 8 MiB mapping is advised, a 72 MiB one is not.
    @Test func kernelSeesTheAdvice() throws {
        func advisedFlag(length: Int) throws -> Bool? {
            let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let p, p != MAP_FAILED else { Issue.record("mmap of \(length) bytes failed"); return nil }
            defer { munmap(p, length) }
            nr_advise_huge_pages(p, length)
            // Read to its end (the file reports a size of 0, which reading by size takes at its word).
            let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
            defer { try? handle.close() }
            let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            // The mapping that holds the buffer (the kernel may have merged it with a neighbour):
            // its first line is "start-end perms ...", its VmFlags line comes later.
            let address = UInt(bitPattern: p)
            var holds = false
            for line in smaps.split(separator: "\n") {
                let first = line.split(separator: " ", maxSplits: 1).first ?? ""
                let bounds = first.split(separator: "-")
                if bounds.count == 2, let from = UInt(bounds[0], radix: 16), let to = UInt(bounds[1], radix: 16) {
                    holds = from <= address && address < to
                } else if holds && line.hasPrefix("VmFlags:") {
                    return line.split(separator: " ").contains("hg")
                }
            }
            Issue.record("no mapping holds \(String(UInt(bitPattern: p), radix: 16)) in /proc/self/smaps")
            return nil
        }
        // Kernels built without transparent huge pages have no advice to record.
        guard FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") else { return }
        #expect(try advisedFlag(length: 8 << 20) == true)
        #expect(try advisedFlag(length: 72 << 20) == false)
    }
    #endif
}
