// SHA-256 with the x86 SHA extensions, for the fingerprints of font files that every run takes
// (Raster's SHA256; issue 17: 2-3 MB of fonts hashed at every start of a check).
#ifndef NAVREEL_SHA256_H
#define NAVREEL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The SHA-256 (FIPS 180-4) of `length` bytes into `digest` (32 bytes) and 1, when this CPU has
/// the SHA extensions (with SSSE3 and SSE4.1; asked once with CPUID); otherwise 0 and nothing
/// written, and the caller hashes in software.
int nr_sha256_hardware(const uint8_t *data, size_t length, uint8_t *digest);

/// SHA-256's 64 round constants, for the software version too.
const uint32_t *nr_sha256_round_constants(void);

#ifdef __cplusplus
}
#endif

#endif
