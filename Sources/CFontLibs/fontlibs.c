// See include/fontlibs.h for why FreeType and HarfBuzz are loaded on first use.
#include "fontlibs.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static nr_font_api nr_api;
static const nr_font_api *nr_loaded;
static char nr_error[512];
static pthread_once_t nr_once = PTHREAD_ONCE_INIT;

#if defined(__linux__)
#include <dlfcn.h>

// The sonames of the ABIs the headers describe: FreeType 2 has been libfreetype.so.6 since 2.0,
// HarfBuzz libharfbuzz.so.0 since its first release; both add functions without breaking them.
static const char *const nr_freetype_soname = "libfreetype.so.6";
static const char *const nr_harfbuzz_soname = "libharfbuzz.so.0";

static void nr_load(void) {
    // RTLD_LOCAL: the libraries' symbols stay out of the global namespace, as when linked into
    // the executable only. FreeType first: HarfBuzz depends on it.
    void *freetype = dlopen(nr_freetype_soname, RTLD_NOW | RTLD_LOCAL);
    if (!freetype) {
        const char *why = dlerror();
        snprintf(nr_error, sizeof nr_error, "cannot load FreeType (%s): %s; install it (Debian: apt-get install libfreetype6)",
                 nr_freetype_soname, why ? why : "not found");
        return;
    }
    void *harfbuzz = dlopen(nr_harfbuzz_soname, RTLD_NOW | RTLD_LOCAL);
    if (!harfbuzz) {
        const char *why = dlerror();
        snprintf(nr_error, sizeof nr_error, "cannot load HarfBuzz (%s): %s; install it (Debian: apt-get install libharfbuzz0b)",
                 nr_harfbuzz_soname, why ? why : "not found");
        dlclose(freetype);
        return;
    }
#define NR_LOAD(lib, name)                                                                          \
    {                                                                                               \
        void *symbol = dlsym(lib, #name);                                                           \
        if (!symbol) {                                                                              \
            snprintf(nr_error, sizeof nr_error, "%s has no function %s (too old a version?)",       \
                     lib == freetype ? nr_freetype_soname : nr_harfbuzz_soname, #name);             \
            dlclose(harfbuzz);                                                                      \
            dlclose(freetype);                                                                      \
            return;                                                                                 \
        }                                                                                           \
        memcpy(&nr_api.name, &symbol, sizeof symbol);                                               \
    }
    NR_FONT_FUNCTIONS(NR_LOAD)
#undef NR_LOAD
    // The libraries stay loaded for the life of the process.
    nr_loaded = &nr_api;
}
#else
static void nr_load(void) {
#define NR_LINK(lib, name) nr_api.name = name;
    NR_FONT_FUNCTIONS(NR_LINK)
#undef NR_LINK
    nr_loaded = &nr_api;
}
#endif

const nr_font_api *nr_font_api_load(char *error, size_t size) {
    pthread_once(&nr_once, nr_load);
    if (!nr_loaded && size > 0) {
        strncpy(error, nr_error, size - 1);
        error[size - 1] = 0;
    }
    return nr_loaded;
}
