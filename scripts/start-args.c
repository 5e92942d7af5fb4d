/* The command line for the Swift runtime, without reading /proc/self/maps at every start (issue 17).
 *
 * On Linux the Swift runtime finds argc and argv for CommandLine.arguments with a static
 * initialiser in libswiftCore (ArgvGrabber, stdlib/public/CommandLineSupport/CommandLine.cpp in
 * the Swift repository): at every start it opens /proc/self/maps, has the kernel print every
 * mapping of the process with its path, parses the lines with sscanf to find the stack, and walks
 * back from `environ` to argv. That was about 50 us of a 1 ms `navreel --version` here (a Swift
 * "hello" linked as navreel: 0.99 -> 0.94 ms, wall medians of 301 interleaved runs).
 *
 * glibc calls the main program's .init_array functions with (argc, argv, envp), a glibc extension
 * (musl passes nothing): since glibc 2.34 csu/libc-start.c does it (call_init) for static and
 * dynamic programs alike (elf/dl-init.c runs the libraries' and skips the program's). This file
 * keeps the two values from there and defines the runtime's two entry points, with the same names
 * and calling convention, so the linker resolves the standard library's calls to them and never
 * takes CommandLine.cpp.o (and its initialiser) out of libswiftCore.a. The standard library asks
 * once, for CommandLine's first use, and counts the arguments up to argv's terminating null
 * itself (stdlib/public/core/CommandLine.swift).
 *
 * scripts/build-release compiles this with clang (for the swiftcall attribute) and links it into
 * the release binary only, when the runtime's CommandLine.cpp.o defines nothing but these two
 * functions, then checks that the runtime's copy is absent and that arguments arrive whole.
 * Debug and test builds load the shared Swift runtime and keep its own.
 */
#include <features.h>
#include <stddef.h>

#ifndef __GLIBC__
#error "start-args.c relies on glibc passing (argc, argv, envp) to .init_array functions"
#endif

static char **start_argv;
static int start_argc;
static char **override_argv;
static int override_argc;

static void keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    start_argc = argc;
    start_argv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const keep_arguments_entry)(int, char **, char **) = keep_arguments;

/* The standard library's CommandLine asks for the vector through this (@_silgen_name, swiftcc). */
__attribute__((swiftcall))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *empty[] = {NULL};
    if (override_argv) {
        *outArgLen = override_argc;
        return override_argv;
    }
    if (!start_argv) {
        /* Not started by glibc's start code: no arguments, as the runtime's own copy answers
           when it cannot find them. */
        *outArgLen = 0;
        return empty;
    }
    *outArgLen = start_argc;
    return start_argv;
}

/* The runtime exports this for a JIT to set the arguments; kept so that the symbol exists. */
__attribute__((swiftcall))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
