// NavReel's thread team: see team.h for why it exists.
#define _GNU_SOURCE
#include "team.h"

#ifdef __linux__
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* At most this many helpers, and never more than the CPUs the process may run on, less the
 * caller's (a `--jobs` beyond them runs on fewer threads; the 2-core CI machine has one helper). */
#define TEAM_MAX 64
/* How long an idle helper, and a caller waiting for its helpers, spin before sleeping. One job
 * of `navreel diff` follows another within a fraction of this (the comparison's first band runs
 * alone for 0.1-0.3 ms after the decodes); a woken thread may be put on a busy CPU, which is
 * what the team is for (team.h). */
#define SPIN_NS 1000000

/* The job word: the job's generation (bits 32-63), open (bit 31: helpers may still join) and
 * the number of helpers in it (bits 0-30). */
#define OPEN ((uint64_t)1 << 31)
#define ACTIVE ((uint64_t)OPEN - 1)

static uint64_t job_state;
static uint32_t generation;      /* futex word the helpers wait on: the latest job's */
static uint32_t finished;        /* futex word the caller waits on: bumped when the last helper leaves */
static uint32_t sleepers;        /* helpers asleep on `generation` */
static int spinning;             /* helpers spinning for the next job (nr_team_awake) */
static int busy;                 /* a caller holds the team */
static int resting;              /* nr_team_rest: idle helpers sleep now instead of spinning */
static int helper_count;         /* made so far, under create_lock */
static int creation_failed;      /* pthread_create refused once: no more tries, under create_lock */
static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_set_t process_cpus;
static int process_cpus_known;

/* The job, written by its caller before it publishes the generation, read by helpers after
 * they joined it (the caller does not change them until every joined helper has left). */
static nr_team_body job_body;
static void *job_context;
static int64_t job_count;
static int64_t job_next;
static int job_helpers;          /* helpers with a smaller id may join (atomic: read before joining) */

static __thread int on_team;     /* this thread is a helper, or runs a team job */

static long futex(uint32_t *word, int op, uint32_t value) {
    return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, value, NULL, NULL, 0);
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* The iterations left, taken one at a time. */
static void run_iterations(void) {
    nr_team_body body = job_body;
    void *context = job_context;
    int64_t count = job_count;
    for (;;) {
        int64_t i = __atomic_fetch_add(&job_next, 1, __ATOMIC_RELAXED);
        if (i >= count) return;
        body(context, i);
    }
}

/* What a new helper is given: its id and the CPUs it may run on once started. */
typedef struct helper_start {
    int id;
    int cpus_known;
    cpu_set_t cpus;
} helper_start;

static void *helper_main(void *argument) {
    helper_start start = *(helper_start *)argument;
    free(argument);
    int id = start.id;
    /* The placement hint (another CPU than the creator's) has done its work: from now on the
     * scheduler may move this thread anywhere the process may run. */
    if (start.cpus_known) sched_setaffinity(0, sizeof start.cpus, &start.cpus);
    on_team = 1;
    uint32_t seen = 0;
    for (;;) {
        uint32_t g = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
        if (g == seen) {
            int64_t until = now_ns() + SPIN_NS;
            int spins = 0;
            __atomic_fetch_add(&spinning, 1, __ATOMIC_RELAXED);
            while ((g = __atomic_load_n(&generation, __ATOMIC_ACQUIRE)) == seen) {
                relax();
                if (++spins % 64 == 0 && (now_ns() > until || __atomic_load_n(&resting, __ATOMIC_RELAXED))) {
                    __atomic_fetch_sub(&spinning, 1, __ATOMIC_RELAXED);
                    __atomic_fetch_add(&sleepers, 1, __ATOMIC_SEQ_CST);
                    futex(&generation, FUTEX_WAIT, seen);   /* returns at once if it changed */
                    __atomic_fetch_sub(&sleepers, 1, __ATOMIC_SEQ_CST);
                    __atomic_fetch_add(&spinning, 1, __ATOMIC_RELAXED);
                    until = now_ns() + SPIN_NS;
                }
            }
            __atomic_fetch_sub(&spinning, 1, __ATOMIC_RELAXED);
        }
        seen = g;
        /* Join job g while it is open and wants this helper; a later job (or a closed one) is not
         * this one. A helper the job does not want sleeps again at once: it was woken with the
         * rest (FUTEX_WAKE wakes whom it likes), and spinning would take a CPU for nothing. If
         * job_helpers is already the next job's, the CAS below fails on the generation. */
        uint64_t state = __atomic_load_n(&job_state, __ATOMIC_ACQUIRE);
        if (id >= __atomic_load_n(&job_helpers, __ATOMIC_RELAXED)) {
            __atomic_fetch_add(&sleepers, 1, __ATOMIC_SEQ_CST);
            futex(&generation, FUTEX_WAIT, seen);
            __atomic_fetch_sub(&sleepers, 1, __ATOMIC_SEQ_CST);
            continue;
        }
        int joined = 0;
        while ((uint32_t)(state >> 32) == g && (state & OPEN)) {
            if (__atomic_compare_exchange_n(&job_state, &state, state + 1, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                joined = 1;
                break;
            }
        }
        if (!joined) continue;
        run_iterations();
        uint64_t before = __atomic_fetch_sub(&job_state, 1, __ATOMIC_ACQ_REL);
        if ((before & ACTIVE) == 1 && !(before & OPEN)) {
            __atomic_fetch_add(&finished, 1, __ATOMIC_RELEASE);
            futex(&finished, FUTEX_WAKE, 1);
        }
    }
    return NULL;
}

/* Makes helpers until there are `wanted` (or creation fails), at most one fewer than the CPUs the
 * process may run on (its first thread's affinity, read again when helpers are made: a cpuset
 * of 2 CPUs on a 64-core host gives one helper, however many jobs were asked for); the number
 * there is. */
static int make_helpers(int wanted) {
    pthread_mutex_lock(&create_lock);
    cpu_set_t cpus;
    if (helper_count < wanted && !creation_failed && sched_getaffinity(getpid(), sizeof cpus, &cpus) == 0) {
        process_cpus = cpus;
        process_cpus_known = 1;
    }
    if (process_cpus_known && CPU_COUNT(&process_cpus) - 1 < wanted) wanted = CPU_COUNT(&process_cpus) - 1;
    while (helper_count < wanted && !creation_failed) {
        pthread_attr_t attributes;
        if (pthread_attr_init(&attributes) != 0) break;
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        /* Start on another CPU than this thread's, when the process has one. */
        int cpu = sched_getcpu();
        if (process_cpus_known && cpu >= 0 && cpu < CPU_SETSIZE) {
            cpu_set_t others = process_cpus;
            CPU_CLR(cpu, &others);
            if (CPU_COUNT(&others) > 0) pthread_attr_setaffinity_np(&attributes, sizeof others, &others);
        }
        helper_start *start = (helper_start *)malloc(sizeof *start);
        pthread_t thread;
        int made = 0;
        if (start) {
            start->id = helper_count;
            start->cpus_known = process_cpus_known;
            start->cpus = process_cpus;
            made = pthread_create(&thread, &attributes, helper_main, start) == 0;
            if (!made) free(start);
        }
        pthread_attr_destroy(&attributes);
        if (!made) {
            creation_failed = 1;   /* (a thread limit, memory): the caller and the helpers there are do the work */
            break;
        }
        __atomic_store_n(&helper_count, helper_count + 1, __ATOMIC_RELEASE);
    }
    int count = helper_count < wanted ? helper_count : wanted;
    pthread_mutex_unlock(&create_lock);
    return count;
}

int nr_team_run(int64_t start, int64_t count, int workers, nr_team_body body, void *context) {
    if (on_team || workers < 2 || body == NULL) return 0;
    int free_team = 0;
    if (!__atomic_compare_exchange_n(&busy, &free_team, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return 0;
    on_team = 1;
    __atomic_store_n(&resting, 0, __ATOMIC_RELAXED);
    if (start < count) {
        int64_t left = count - start;
        int helpers = workers - 1 < TEAM_MAX ? workers - 1 : TEAM_MAX;
        if (left - 1 < helpers) helpers = (int)(left - 1);
        if (helpers > 0) {
            int made = make_helpers(helpers);
            if (made < helpers) helpers = made;
        }

        job_body = body;
        job_context = context;
        job_count = count;
        __atomic_store_n(&job_next, start, __ATOMIC_RELAXED);
        __atomic_store_n(&job_helpers, helpers, __ATOMIC_RELAXED);
        uint32_t g = generation + 1;
        if (g == 0) g = 1;   /* helpers start having seen 0 */
        __atomic_store_n(&job_state, (uint64_t)g << 32 | OPEN, __ATOMIC_RELEASE);
        __atomic_store_n(&generation, g, __ATOMIC_SEQ_CST);
        if (helpers > 0 && __atomic_load_n(&sleepers, __ATOMIC_SEQ_CST) > 0) futex(&generation, FUTEX_WAKE, INT_MAX);

        run_iterations();

        /* Close the job and wait for the helpers in it (those that joined too late find no
         * iterations, those not yet woken will not join). */
        uint64_t state = __atomic_fetch_and(&job_state, ~OPEN, __ATOMIC_ACQ_REL) & ~OPEN;
        if (state & ACTIVE) {
            int64_t until = now_ns() + SPIN_NS;
            int spins = 0;
            for (;;) {
                uint32_t seen = __atomic_load_n(&finished, __ATOMIC_ACQUIRE);
                if ((__atomic_load_n(&job_state, __ATOMIC_ACQUIRE) & ACTIVE) == 0) break;
                if (++spins % 64 == 0 && now_ns() > until) futex(&finished, FUTEX_WAIT, seen);
                else relax();
            }
        }
    }
    on_team = 0;
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
    return 1;
}

int nr_team_process_cpus(void) {
    cpu_set_t cpus;
    return sched_getaffinity(getpid(), sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : -1;
}

int nr_team_thread_has_process_cpus(void) {
    cpu_set_t thread, process;
    if (sched_getaffinity(0, sizeof thread, &thread) != 0 || sched_getaffinity(getpid(), sizeof process, &process) != 0) return -1;
    return CPU_EQUAL(&thread, &process);
}

int nr_team_awake(void) { return __atomic_load_n(&spinning, __ATOMIC_RELAXED); }

void nr_team_rest(void) { __atomic_store_n(&resting, 1, __ATOMIC_RELAXED); }

int nr_team_free(void) { return !on_team && __atomic_load_n(&busy, __ATOMIC_RELAXED) == 0; }

int nr_team_helpers(void) { return __atomic_load_n(&helper_count, __ATOMIC_ACQUIRE); }

#else

int nr_team_run(int64_t start, int64_t count, int workers, nr_team_body body, void *context) {
    (void)start; (void)count; (void)workers; (void)body; (void)context;
    return 0;
}

void nr_team_rest(void) {}

int nr_team_awake(void) { return 0; }

int nr_team_free(void) { return 0; }

int nr_team_thread_has_process_cpus(void) { return 1; }

int nr_team_process_cpus(void) { return -1; }

int nr_team_helpers(void) { return 0; }

#endif
