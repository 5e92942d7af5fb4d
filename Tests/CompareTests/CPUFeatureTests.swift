import CCompare
import CPNG
import Foundation
import Testing

/// NavReel's C targets ask CPUID themselves, on first use (issue 17: libgcc's
/// `__builtin_cpu_supports` links a constructor that cost every start a dozen hypervisor traps).
/// Their answers must agree with what the system reports, or the tests of the vector loops would
/// hold the plain loops to themselves.
@Suite("CPU feature checks")
struct CPUFeatureTests {
    /// Whether the system reports a feature: Linux's /proc/cpuinfo flags (which leave out AVX2
    /// when the kernel does not save the YMM registers), a sysctl on Intel macOS; nil where
    /// neither applies (the checks must then say no).
    static func systemHas(linuxFlag: String, macKey: String) throws -> Bool? {
        #if os(Linux) && (arch(x86_64) || arch(i386))
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ") ?? []
        #expect(flags.contains("sse2"), "no flags line read from /proc/cpuinfo")
        return flags.contains(Substring(linuxFlag))
        #elseif arch(x86_64)
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        return sysctlbyname(macKey, &value, &size, nil, 0) == 0 && value == 1
        #else
        return nil
        #endif
    }

    @Test("the diff image's AVX2 loop runs exactly where the CPU and the operating system offer AVX2")
    func avx2() throws {
        #if arch(x86_64)   // the AVX2 loop is built for x86-64 only
        let has = try Self.systemHas(linuxFlag: "avx2", macKey: "hw.optional.avx2_0") ?? false
        #else
        let has = false
        #endif
        #expect(nr_fade_run_vectorised() == (has ? 1 : 0))
    }

    @Test("RGB rows take the SSSE3 loop exactly where the CPU has SSSE3")
    func ssse3() throws {
        let has = try Self.systemHas(linuxFlag: "ssse3", macKey: "hw.optional.supplementalsse3") ?? false
        #expect(nr_png_ssse3() == (has ? 1 : 0))
    }
}
