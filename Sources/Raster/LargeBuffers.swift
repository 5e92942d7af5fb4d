#if canImport(Glibc)
import Glibc
#endif

/// Keeps freed frame-sized buffers in the process instead of returning them to the system.
///
/// A 3x iPhone frame is a dozen buffers of 3 to 12 MB (canvas layers, maps, the image). glibc
/// serves blocks above its mmap threshold with fresh `mmap`s and unmaps them on `free`, or trims
/// them off the top of the heap, so each frame touched every page anew: a page fault and a
/// page clear per 4 KB, a sixth of a frame's CPU time (issue 17, measured with perf). Raising
/// the threshold to its largest value (32 MB on 64-bit, glibc malloc.c `HEAP_MAX_SIZE / 2`) and
/// never trimming lets the next frame reuse the same pages. Memory stays bounded by the peak a
/// run reaches, which `navreel bench check` reports. Other C libraries (macOS) keep their own
/// caching and need nothing.
enum LargeBuffers {
    #if canImport(Glibc)
    @_silgen_name("mallopt")
    static func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
    #endif

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
