/*
 * CUDA device definitions for kernels built with clang
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

/**
 * @file
 * What the kernels need beyond compat/cuda/cuda_runtime.h, which FFmpeg's
 * --enable-cuda-llvm build force-includes (clang -nocudainc, no CUDA
 * headers): qualifiers, gridDim, __syncwarp, warp shuffles and ballot, bit
 * operations, the separately rounded float and double operations, round,
 * __ldg of bytes, size types. Only what the kernels use is defined here;
 * a kernel that needs more of CUDA's device functions adds them.
 *
 * Everything is a clang builtin (__nvvm_*, __builtin_*, lowered to the same
 * PTX instruction as the CUDA intrinsic) or inline PTX. The warp primitives
 * are inline PTX because clang's __nvvm_*_sync builtins need a PTX ISA
 * target feature that the FFmpeg command line does not enable.
 *
 * Precision: every _rn/_rz operation is its PTX instruction with that
 * rounding, never fused (FMA) or approximate, denormals kept (no .ftz), as
 * with nvcc without --use_fast_math, even if the flags allow contraction.
 * The plain operators need -ffp-contract=off (the build passes it).
 *
 * With nvcc the CUDA headers define all of this; only the helpers below
 * that CUDA lacks (ffc_*) are defined for both compilers.
 */

#ifndef KERNELS_CUDA_COMPAT_H
#define KERNELS_CUDA_COMPAT_H

#if defined(__clang__) && !defined(__NVCC__) && !defined(__CUDACC_VER_MAJOR__)
#define FFC_CLANG_CUDA 1
#else
#define FFC_CLANG_CUDA 0
#endif

#if FFC_CLANG_CUDA

#ifndef COMPAT_CUDA_CUDA_RUNTIME_H
#error "compat/cuda/cuda_runtime.h must be included first (-include)"
#endif

/* ------------------------------------------------------------- qualifiers */

#ifndef __shared__
#define __shared__           __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__         __attribute__((constant))
#endif
#ifndef __forceinline__
#define __forceinline__      __inline__ __attribute__((always_inline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif

#define FFC_DEV static __device__ __forceinline__

/* ------------------------------------------------------------------ types */

typedef __SIZE_TYPE__    size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

typedef struct __device_builtin__ __align__(8) uint2
{
    unsigned int x, y;
} uint2;

typedef struct __device_builtin__ __align__(16) uint4
{
    unsigned int x, y, z, w;
} uint4;

/* -------------------------------------------------------- special registers */

FFC_DEV uint3 ffc_grid_dim(void)
{
    uint3 r;
    r.x = __nvvm_read_ptx_sreg_nctaid_x();
    r.y = __nvvm_read_ptx_sreg_nctaid_y();
    r.z = __nvvm_read_ptx_sreg_nctaid_z();
    return r;
}

#define gridDim  (ffc_grid_dim())

/* --------------------------------------------------------------- barriers */

/* __syncthreads() is a clang builtin (bar.sync 0). */
FFC_DEV void __syncwarp(unsigned mask = 0xffffffffu)
{
    asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");
}

/* ------------------------------------------------------ warp shuffles, ballot */

/* c operand of shfl.sync: segment mask << 8 | clamp, as in CUDA */
#define FFC_SHFL(name, mode, c)                                               \
FFC_DEV unsigned name(unsigned mask, unsigned v, unsigned b, int width)      \
{                                                                             \
    unsigned r;                                                               \
    asm volatile("shfl.sync." mode ".b32 %0, %1, %2, %3, %4;"                 \
                 : "=r"(r) : "r"(v), "r"(b), "r"(c), "r"(mask));              \
    return r;                                                                 \
}
FFC_SHFL(ffc_shfl_idx,  "idx",  ((32 - width) << 8) | 0x1f)
FFC_SHFL(ffc_shfl_up,   "up",   (32 - width) << 8)
FFC_SHFL(ffc_shfl_down, "down", ((32 - width) << 8) | 0x1f)
FFC_SHFL(ffc_shfl_bfly, "bfly", ((32 - width) << 8) | 0x1f)
#undef FFC_SHFL

/* the types the kernels shuffle */
FFC_DEV int __shfl_sync(unsigned m, int v, int lane, int w = 32)
{ return (int)ffc_shfl_idx(m, (unsigned)v, (unsigned)lane, w); }
FFC_DEV int __shfl_up_sync(unsigned m, int v, unsigned d, int w = 32)
{ return (int)ffc_shfl_up(m, (unsigned)v, d, w); }
FFC_DEV unsigned __shfl_down_sync(unsigned m, unsigned v, unsigned d, int w = 32)
{ return (unsigned)ffc_shfl_down(m, (unsigned)v, d, w); }
FFC_DEV int __shfl_xor_sync(unsigned m, int v, int lm, int w = 32)
{ return (int)ffc_shfl_bfly(m, (unsigned)v, (unsigned)lm, w); }
FFC_DEV unsigned __shfl_xor_sync(unsigned m, unsigned v, int lm, int w = 32)
{ return (unsigned)ffc_shfl_bfly(m, (unsigned)v, (unsigned)lm, w); }

/* A value of 8 bytes takes two shuffles of its halves: such a call is
 * refused rather than converted to 32 bits. */
template <bool B> struct ffc_if {};
template <> struct ffc_if<true> { typedef int type; };
#define FFC_SHFL_64(name) \
template <typename T, typename ffc_if<sizeof(T) == 8>::type = 0> \
FFC_DEV T name(unsigned m, T v, int b, int w = 32) = delete;
FFC_SHFL_64(__shfl_sync)
FFC_SHFL_64(__shfl_up_sync)
FFC_SHFL_64(__shfl_down_sync)
FFC_SHFL_64(__shfl_xor_sync)
#undef FFC_SHFL_64

FFC_DEV unsigned __ballot_sync(unsigned mask, int pred)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.s32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, %2;\n\t}"
                 : "=r"(r) : "r"(pred), "r"(mask));
    return r;
}

/* ------------------------------------------------------------- bit operations */

FFC_DEV int      __popc(unsigned x)            { return __builtin_popcount(x); }
/* clz.b32 gives 32 for 0, where __builtin_clz is undefined */
FFC_DEV int __clz(int x)
{
    int r;
    asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
}
FFC_DEV int      __ffsll(long long x)          { return __builtin_ffsll(x); }
FFC_DEV unsigned __byte_perm(unsigned a, unsigned b, unsigned s)
{
    return __nvvm_prmt(a, b, s);
}
FFC_DEV unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}

FFC_DEV unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}

/* ---------------------------------------------------- barriers with a vote */

FFC_DEV int __syncthreads_or(int pred) { return __nvvm_bar0_or(pred); }

/* --------------------------------------------------------------- atomics */

FFC_DEV unsigned atomicMin(unsigned *p, unsigned v)
{
    return __atomic_fetch_min(p, v, __ATOMIC_RELAXED);
}
FFC_DEV unsigned long long atomicMin(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_min(p, v, __ATOMIC_RELAXED);
}

/* ------------------------------------------------- read-only global loads */

/* the one type the kernels read through the read-only cache */
FFC_DEV unsigned char __ldg(const unsigned char *p) { return (unsigned char)__nvvm_ldg_uc(p); }

/* ------------------------------------- separately rounded float operations */

/*
 * Add and multiply are inline PTX: LLVM turns __nvvm_add_rn_f and
 * __nvvm_mul_rn_f into plain fadd/fmul, which clang's default
 * -ffp-contract=fast would fuse into fma.rn. As PTX they stay separately
 * rounded whatever the flags. The division has no fused form.
 */
#define FFC_FOP2(name, T, op, c)                                              \
FFC_DEV T name(T a, T b)                                                      \
{                                                                             \
    T r;                                                                      \
    asm(op " %0, %1, %2;" : "=" c(r) : c(a), c(b));                           \
    return r;                                                                 \
}
FFC_FOP2(__fadd_rn, float,  "add.rn.f32", "f")
FFC_FOP2(__fmul_rn, float,  "mul.rn.f32", "f")
FFC_FOP2(__dadd_rz, double, "add.rz.f64", "d")
FFC_FOP2(__dmul_rn, double, "mul.rn.f64", "d")
#undef FFC_FOP2

FFC_DEV double __ddiv_rn(double a, double b) { return __nvvm_div_rn_d(a, b); }

/* ------------------------------------------------------------ conversions */

FFC_DEV int      __float2int_rn(float a)   { return __nvvm_f2i_rn(a); }
FFC_DEV int      __float2int_rz(float a)   { return __nvvm_f2i_rz(a); }
FFC_DEV float    __double2float_rn(double a) { return __nvvm_d2f_rn(a); }

/* ------------------------------------------------------------------- math */

/*
 * round(): half away from zero, as CUDA's: trunc(a + copysign(0.5, a))
 * with the addition rounded toward zero (exact for every double).
 */
static inline __device__ double round(double a)
{
    return __builtin_trunc(__dadd_rz(a, __builtin_copysign(0.5, a)));
}
#undef FFC_DEV

#else /* nvcc: the CUDA headers define all of the above */

#include <stddef.h>
#include <stdint.h>

#endif /* FFC_CLANG_CUDA */

/* ------------------------------------------- helpers for both compilers */

/* acc + sum of the absolute differences of the 4 unsigned bytes of a and b:
 * one vabsdiff4 with accumulation (nvcc fuses __vsadu4(a, b) + acc itself) */
static __device__ __forceinline__ unsigned ffc_vsadu4_add(unsigned a, unsigned b,
                                                          unsigned acc)
{
#if FFC_CLANG_CUDA
    unsigned r;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
        : "=r"(r) : "r"(a), "r"(b), "r"(acc));
    return r;
#else
    return __vsadu4(a, b) + acc;
#endif
}

#endif /* KERNELS_CUDA_COMPAT_H */
