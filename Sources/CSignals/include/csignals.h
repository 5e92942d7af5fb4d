// What the navreel command does about signals (the only code that handles them).
//
// SIGPIPE is ignored: `navreel check | head -1` used to kill a check or a record at its next line
// of output (exit 141, a record of 176 frames stopping after 36); writes to a closed pipe now
// fail quietly and the command finishes with its own exit status.
//
// SIGINT, SIGTERM and SIGHUP remove the temporary files of writes in flight (each file is written
// beside its target and renamed over it, so a reader never sees half a file) and then end the
// process as the signal would (exit status 128 + the signal), so Ctrl-C leaves no
// `.0003.png.PID.N.tmp` files in a baselines folder for `git add` to pick up.
#ifndef NAVREEL_CSIGNALS_H
#define NAVREEL_CSIGNALS_H

/// Installs the handlers above (once; later calls do nothing). For the command line only: a
/// program using NavReel as a library keeps its own signal handling.
void nr_signals_install(void);

/// Notes `path` (a temporary file about to be created) for removal on an interrupting signal.
/// Returns a slot to pass to nr_temp_release, or -1 when every slot is taken or the path is too
/// long (that file is then simply not removed on a signal). Thread-safe, lock-free.
int nr_temp_register(const char *path);

/// The file of `slot` was renamed into place or removed: forget it. -1 is ignored.
void nr_temp_release(int slot);

#endif
