#if canImport(Glibc)
import Glibc
#endif
import CPNG

/// Keeps freed frame-sized buffers in the process instead of returning them to the system, and
/// puts a one-shot process's buffers in huge pages (`reserve`).
///
/// A 3x iPhone frame is a dozen buffers of 3 to 12 MB (canvas layers, maps, the image). glibc
/// serves blocks above its mmap threshold with fresh `mmap`s and unmaps them on `free`, or trims
/// them off the top of the heap, so each frame touched every page anew: a page fault and a
/// page clear per 4 KB, a sixth of a frame's CPU time (issue 17, measured with perf). Raising
/// the threshold to its largest value (32 MB on 64-bit, glibc malloc.c `HEAP_MAX_SIZE / 2`) and
/// never trimming lets the next frame reuse the same pages. Memory stays bounded by the peak a
/// run reaches, which `navreel bench check` reports. Other C libraries (macOS) keep their own
/// caching and need nothing.
package enum LargeBuffers {
    #if canImport(Glibc)
    @_silgen_name("mallopt")
    static func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
    #endif

    /// Puts the calling thread's next `bytes` of allocations in huge pages (Linux; see
    /// `nr_reserve_huge_pages`), for buffers made once and touched once, such as `diff`'s 1x
    /// frames, below the 4 MiB `nr_advise_huge_pages` takes. `release` the result once every
    /// buffer is made: earlier, the freed pad could hold the next ones, in small pages.
    /// Larger needs (a 3x frame, a phone or desktop screenshot) are left alone, with glibc's own
    /// mmap threshold: their large buffers are mmap'd and advised whole (`nr_advise_huge_pages`,
    /// up to 64 MiB a buffer; a 37 MP image's stay in 4 KB pages, cpng.c says why).
    /// Neither on a virtual machine whose balloon reports free memory to its host
    /// (`nr_free_page_reporting`): a fresh 2 MiB page there costs more than its 512 small faults.
    /// Reserving for them too made their diffs faster at the median (3x copy with an image 0.77x)
    /// but, on a VM that hands freed memory back to its host, slower in bench-diff's runs, where
    /// other programs' memory churns between them: every 2 MiB page taken from a returned block
    /// costs up to 3.7 ms (the phone and desktop pairs re-encoded identical with a diff image
    /// read 1.3-1.9x odiff in two runs of three, once before this). A 1x frame's needs (2.6 MB
    /// with its maps) are a few such pages.
    package static let maxNeed = 8 << 20

    /// `bytes` is what the buffers need; a megabyte of slack is added. Needs under a megabyte
    /// (a 1x1 diff) reserve nothing: a 2 MiB page for them costs more than their faults.
    package static func reserve(bytes: Int) -> Reservation {
        guard bytes >= 1 << 20 && bytes <= maxNeed else { return .none }
        return Reservation(pad: tuned ? nr_reserve_huge_pages(bytes + (1 << 20)) : nil)
    }

    package struct Reservation: @unchecked Sendable {
        let pad: UnsafeMutableRawPointer?
        package static let none = Reservation(pad: nil)
        package func release() { free(pad) }
    }

    static let tuned: Bool = {
        #if canImport(Glibc)
        // <malloc.h>: M_TRIM_THRESHOLD -1, M_MMAP_THRESHOLD -3 (not in Swift's Glibc module).
        _ = glibcMallopt(-3, 32 << 20)
        _ = glibcMallopt(-1, 1 << 30)
        return true
        #else
        return false
        #endif
    }()
}
