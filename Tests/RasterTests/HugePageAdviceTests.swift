import CPNG
import Foundation
import Testing
@testable import Raster

/// Which buffers are asked for in 2 MiB pages (issue 17): 4 to 64 MiB, page-aligned inside the
/// buffer; larger ones stay in 4 KB pages (cpng.c, `nr_huge_advice_range`, says why).
@Suite("Huge-page advice", .serialized)
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

    /// A folder laid out as /sys/bus/virtio/devices: one subfolder per device with its `device`
    /// and `features` files.
    static func devices(_ list: [(device: String, features: String?)]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-virtio-\(UUID().uuidString)")
        for (i, d) in list.enumerated() {
            let folder = root.appendingPathComponent("virtio\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (d.device + "\n").write(to: folder.appendingPathComponent("device"), atomically: true, encoding: .utf8)
            if let f = d.features {
                try (f + "\n").write(to: folder.appendingPathComponent("features"), atomically: true, encoding: .utf8)
            }
        }
        if list.isEmpty { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) }
        return root
    }

    @Test func freePageReportingIsTheBalloonsBitFive() throws {
        let bits = { (set: [Int]) in String((0..<64).map { set.contains($0) ? "1" : "0" }) }
        let cases: [(String, [(device: String, features: String?)], Int32)] = [
            ("balloon reporting free pages", [("0x0001", bits([5])), ("0x0005", bits([1, 2, 5, 32]))], 1),
            ("balloon without reporting", [("0x0005", bits([1, 2, 32]))], 0),
            ("another device with bit 5", [("0x0002", bits([5])), ("0x0001", bits([5]))], 0),
            ("balloon with no features file", [("0x0005", nil)], 0),
            ("features too short to hold bit 5", [("0x0005", "01101")], 0),
            ("no virtio devices", [], 0),
        ]
        for (name, list, expected) in cases {
            let root = try Self.devices(list)
            defer { try? FileManager.default.removeItem(at: root) }
            #expect(nr_free_page_reporting_in(root.path) == expected, "\(name)")
        }
        #expect(nr_free_page_reporting_in("/nonexistent/navreel/virtio") == 0)
    }

    #if os(Linux)
    /// The answer for this machine, against the same files read here (the same rule written
    /// again: the device ID and bit number are pinned by the fake trees above).
    @Test func thisMachinesAnswer() throws {
        let root = "/sys/bus/virtio/devices"
        var expected: Int32 = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            let device = FileManager.default.contents(atPath: "\(root)/\(name)/device").map { String(decoding: $0, as: UTF8.self) }
            guard device?.trimmingCharacters(in: .whitespacesAndNewlines) == "0x0005" else { continue }
            let features = FileManager.default.contents(atPath: "\(root)/\(name)/features").map { Array($0) } ?? []
            if features.count > 5 && features[5] == UInt8(ascii: "1") { expected = 1 }
        }
        #expect(nr_free_page_reporting() == expected)
    }

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
        // As on a machine without a reporting balloon, then as on one with, whichever this is.
        // The answer is the whole process's for the moment: other suites running meanwhile only
        // get their large buffers in other pages (speed, never results).
        let real = nr_free_page_reporting_set(0)
        defer { _ = nr_free_page_reporting_set(real) }
        #expect(try advisedFlag(length: 8 << 20) == true)
        #expect(try advisedFlag(length: 72 << 20) == false)
        _ = nr_free_page_reporting_set(1)
        #expect(try advisedFlag(length: 8 << 20) == false, "no 2 MiB pages where the host takes free memory back")
        // And no huge-page pad: the reservation gives nothing to free.
        #expect(nr_reserve_huge_pages(4 << 20) == nil)
    }
    #endif
}
