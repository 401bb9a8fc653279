/*
 * CUDA driver fault injection for the tests: a library preloaded into
 * ffmpeg (LD_PRELOAD) that makes the Nth call of one driver function fail.
 * It is a test harness, not part of the libraries.
 *
 *   CUDA_FAULT_FUNC=cuMemAlloc_v2   the driver symbol, as ffnvcodec's loader
 *                                    looks it up with dlsym()
 *   CUDA_FAULT_N=3                  the call that fails (1-based); 0 or unset
 *                                    only counts the calls
 *   CUDA_FAULT_CODE=2               the CUresult it returns (default 2,
 *                                    CUDA_ERROR_OUT_OF_MEMORY)
 *   CUDA_FAULT_LOG=file             where to write, at exit, "NAME CALLS HIT"
 *                                    (HIT 1 if the failing call happened)
 *
 * FFmpeg loads libcuda with dlopen() and takes every function with dlsym(),
 * so this library interposes dlsym(): for the chosen name it hands out a
 * trampoline that counts the call, then either returns the error code or
 * jumps to the real function with the caller's registers and stack
 * untouched, whatever the function's arguments (x86-64 only).
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN void *cf_real;   /* the real function */
HIDDEN long  cf_count;  /* calls so far */
HIDDEN long  cf_n;      /* the call that fails, 0: none */
HIDDEN long  cf_code;   /* what it returns */

HIDDEN extern char cf_trampoline[];
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl cf_trampoline\n"
    ".hidden cf_trampoline\n"
    "cf_trampoline:\n"
    "    movl $1, %eax\n"
    "    lock xaddq %rax, cf_count(%rip)\n"
    "    addq $1, %rax\n"
    "    cmpq cf_n(%rip), %rax\n"
    "    je 1f\n"
    "    jmp *cf_real(%rip)\n"
    "1:  movq cf_code(%rip), %rax\n"
    "    ret\n");

static void *(*real_dlsym)(void *, const char *);
static const char *fault_name;
static const char *log_path;

static void init(void)
{
    const char *s;

    real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!real_dlsym)
        real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    if (!real_dlsym) {
        fprintf(stderr, "cudafault: cannot find the real dlsym\n");
        abort();
    }
    fault_name = getenv("CUDA_FAULT_FUNC");
    log_path   = getenv("CUDA_FAULT_LOG");
    cf_n       = (s = getenv("CUDA_FAULT_N"))    ? atol(s) : 0;
    cf_code    = (s = getenv("CUDA_FAULT_CODE")) ? atol(s) : 2;
}

void *dlsym(void *handle, const char *name)
{
    void *p;

    if (!real_dlsym)
        init();
    p = real_dlsym(handle, name);
    if (p && fault_name && !strcmp(name, fault_name)) {
        cf_real = p;
        return cf_trampoline;
    }
    return p;
}

__attribute__((destructor)) static void report(void)
{
    FILE *f;

    if (!fault_name || !log_path || !(f = fopen(log_path, "w")))
        return;
    fprintf(f, "%s %ld %d\n", fault_name, cf_count, cf_n > 0 && cf_count >= cf_n);
    fclose(f);
}
