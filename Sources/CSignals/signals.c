// See include/csignals.h.
#include "csignals.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

// One slot per write in flight: a job writes one file at a time, and --jobs is at most 1024.
#define NR_TEMP_SLOTS 1056
#define NR_TEMP_PATH 1024

enum { SLOT_FREE = 0, SLOT_FILLING = 1, SLOT_READY = 2 };

static char nr_temp_paths[NR_TEMP_SLOTS][NR_TEMP_PATH];
static int nr_temp_state[NR_TEMP_SLOTS];
static int nr_installed;

int nr_temp_register(const char *path) {
    size_t length = strlen(path);
    if (length + 1 > NR_TEMP_PATH) return -1;
    for (int i = 0; i < NR_TEMP_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (__atomic_compare_exchange_n(&nr_temp_state[i], &expected, SLOT_FILLING, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            memcpy(nr_temp_paths[i], path, length + 1);
            // Ready only once the whole path (its NUL last) is in place: the handler reads no other.
            __atomic_store_n(&nr_temp_state[i], SLOT_READY, __ATOMIC_RELEASE);
            return i;
        }
    }
    return -1;
}

void nr_temp_release(int slot) {
    if (slot < 0 || slot >= NR_TEMP_SLOTS) return;
    __atomic_store_n(&nr_temp_state[slot], SLOT_FREE, __ATOMIC_RELEASE);
}

// Only async-signal-safe calls (unlink, signal, raise: POSIX.1-2008 2.4.3). A slot released and
// taken again while this runs can at worst mix two temporary names, both ending in ".tmp": such a
// name is removed only when it still ends so, and a mixed one names no file.
static void nr_on_signal(int sig) {
    for (int i = 0; i < NR_TEMP_SLOTS; i++) {
        if (__atomic_load_n(&nr_temp_state[i], __ATOMIC_ACQUIRE) != SLOT_READY) continue;
        const char *p = nr_temp_paths[i];
        size_t n = 0;
        while (n < NR_TEMP_PATH && p[n]) n++;
        if (n >= 4 && n < NR_TEMP_PATH && memcmp(p + n - 4, ".tmp", 4) == 0) unlink(p);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void nr_signals_install(void) {
    if (__atomic_exchange_n(&nr_installed, 1, __ATOMIC_ACQ_REL)) return;
    signal(SIGPIPE, SIG_IGN);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = nr_on_signal;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) {
        struct sigaction old;
        // A signal the shell set to be ignored (nohup, a background job's SIGINT) stays ignored.
        if (sigaction(signals[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(signals[k], &action, NULL);
    }
}
