// NavReel's own thread team for short parallel work (Raster's `Parallel`), Linux only.
//
// Why not libdispatch alone: on the 2-core VM of issue 17 a new thread (libdispatch's or a plain
// pthread) was often put on the CPU of the thread that made it and waited there until that thread
// blocked or the next scheduler tick (1.5-3 ms), while the other CPU idled: `navreel diff`'s two
// decodes, each 1.5 ms, took 3.5-5 ms together, the second started 1.5-2.2 ms late in 5 runs of
// 6, and the comparison after them gained little from its second thread. This team's helpers
// start on another CPU than their creator's (a placement hint they drop as soon as they run)
// and wait for the next job spinning for up to a millisecond before they sleep, so a job that
// follows another (decode, then compare, then encode) finds them running where they were. A
// helper joins a job only while it is open: one the machine delays before it joins never holds
// up its caller, who takes what is left (one delayed inside an iteration does, as any thread).
#ifndef NAVREEL_TEAM_H
#define NAVREEL_TEAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One iteration of a team job.
typedef void (*nr_team_body)(void *context, int64_t index);

/// Runs body(context, i) for every i in start..<count, each exactly once, on the calling thread
/// and on up to `workers - 1` helper threads (at most 64, and one fewer than the CPUs the process
/// may run on: none on one CPU, where the caller runs every iteration), handing the indices out in increasing order from a
/// shared counter (the iterations begun at any moment are a prefix of the range). Returns when
/// every iteration has returned: 1. Returns 0 having run nothing when the team cannot take the
/// job (another job holds it, this thread is running a team job, not Linux, workers < 2): the
/// caller then runs the iterations another way. Helpers that cannot be created leave the work to
/// the threads that could.
int nr_team_run(int64_t start, int64_t count, int workers, nr_team_body body, void *context);

/// No job is coming soon (a command's last parallel work is done): idle helpers go to sleep
/// now instead of spinning out their millisecond, which would only burn a core another process
/// could use. The next job wakes them (tens of microseconds instead of one).
void nr_team_rest(void);

/// Helpers spinning for the next job now: a job given to the team starts on them within a
/// microsecond (a hint; they may go to sleep the next moment).
int nr_team_awake(void);

/// 1 when nr_team_run would take a job from this thread now (the team is free and this thread
/// is not running a team job), else 0. Only a hint: another thread may take it first.
int nr_team_free(void);

/// Helper threads made so far (tests).
int nr_team_helpers(void);

/// Tests: the CPUs the process's first thread may run on, or -1.
int nr_team_process_cpus(void);

/// Tests: 1 when the calling thread may run on exactly the CPUs of the process's first thread
/// (a helper has dropped its placement hint), 0 when not, -1 when the kernel does not say.
int nr_team_thread_has_process_cpus(void);

#ifdef __cplusplus
}
#endif

#endif
