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
 * headers): qualifiers, gridDim, barriers and fences, warp shuffles and
 * votes, bit operations, atomics, the separately rounded float and double
 * operations, SIMD byte operations, __ldg, fixed-width integer types.
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

#ifndef __host__
#define __host__             __attribute__((host))
#endif
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
typedef __INT8_TYPE__    int8_t;
typedef __INT16_TYPE__   int16_t;
typedef __INT32_TYPE__   int32_t;
typedef __INT64_TYPE__   int64_t;
typedef __UINT8_TYPE__   uint8_t;
typedef __UINT16_TYPE__  uint16_t;
typedef __UINT32_TYPE__  uint32_t;
typedef __UINT64_TYPE__  uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;

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
#define warpSize 32

/* ------------------------------------------------------- barriers, fences */

/* __syncthreads() is a clang builtin (bar.sync 0). */
FFC_DEV int  __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
FFC_DEV int  __syncthreads_and(int p)   { return __nvvm_bar0_and(p); }
FFC_DEV int  __syncthreads_or(int p)    { return __nvvm_bar0_or(p); }
FFC_DEV void __threadfence_block(void)  { __nvvm_membar_cta(); }
FFC_DEV void __threadfence(void)        { __nvvm_membar_gl(); }
FFC_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }

FFC_DEV void __syncwarp(unsigned mask = 0xffffffffu)
{
    asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");
}

FFC_DEV void __nanosleep(unsigned ns)
{
    asm volatile("nanosleep.u32 %0;" :: "r"(ns));
}

/* ------------------------------------------------------ warp shuffles, votes */

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

#define FFC_SHFL_T(T)                                                         \
FFC_DEV T __shfl_sync(unsigned m, T v, int lane, int w = 32)                  \
{ return (T)ffc_shfl_idx(m, (unsigned)v, (unsigned)lane, w); }                \
FFC_DEV T __shfl_up_sync(unsigned m, T v, unsigned d, int w = 32)             \
{ return (T)ffc_shfl_up(m, (unsigned)v, d, w); }                              \
FFC_DEV T __shfl_down_sync(unsigned m, T v, unsigned d, int w = 32)           \
{ return (T)ffc_shfl_down(m, (unsigned)v, d, w); }                            \
FFC_DEV T __shfl_xor_sync(unsigned m, T v, int lm, int w = 32)                \
{ return (T)ffc_shfl_bfly(m, (unsigned)v, (unsigned)lm, w); }
FFC_SHFL_T(int)
FFC_SHFL_T(unsigned)
#undef FFC_SHFL_T

#define FFC_SHFL_F(fn, T, arg)                                                \
FFC_DEV float fn(unsigned m, float v, T arg, int w = 32)                      \
{ return __builtin_bit_cast(float, fn(m, __builtin_bit_cast(unsigned, v), arg, w)); }
FFC_SHFL_F(__shfl_sync,      int,      lane)
FFC_SHFL_F(__shfl_up_sync,   unsigned, d)
FFC_SHFL_F(__shfl_down_sync, unsigned, d)
FFC_SHFL_F(__shfl_xor_sync,  int,      lm)
#undef FFC_SHFL_F

FFC_DEV unsigned __ballot_sync(unsigned mask, int pred)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.s32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, %2;\n\t}"
                 : "=r"(r) : "r"(pred), "r"(mask));
    return r;
}

#define FFC_VOTE(name, mode)                                                  \
FFC_DEV int name(unsigned mask, int pred)                                     \
{                                                                             \
    int r;                                                                    \
    asm volatile("{\n\t.reg .pred p, q;\n\t"                                  \
                 "setp.ne.s32 p, %1, 0;\n\t"                                  \
                 "vote.sync." mode ".pred q, p, %2;\n\t"                      \
                 "selp.s32 %0, 1, 0, q;\n\t}"                                 \
                 : "=r"(r) : "r"(pred), "r"(mask));                           \
    return r;                                                                 \
}
FFC_VOTE(__any_sync, "any")
FFC_VOTE(__all_sync, "all")
#undef FFC_VOTE

FFC_DEV unsigned __activemask(void)
{
    unsigned r;
    asm volatile("activemask.b32 %0;" : "=r"(r));
    return r;
}

/* ------------------------------------------------------------- bit operations */

FFC_DEV int      __popc(unsigned x)            { return __builtin_popcount(x); }
FFC_DEV int      __popcll(unsigned long long x) { return __builtin_popcountll(x); }
/* clz.b32 gives 32 for 0, where __builtin_clz is undefined */
FFC_DEV int __clz(int x)
{
    int r;
    asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
}
FFC_DEV int __clzll(long long x)
{
    int r;
    asm("clz.b64 %0, %1;" : "=r"(r) : "l"(x));
    return r;
}
FFC_DEV int      __ffs(int x)                  { return __builtin_ffs(x); }
FFC_DEV int      __ffsll(long long x)          { return __builtin_ffsll(x); }
FFC_DEV unsigned __brev(unsigned x)            { return __builtin_bitreverse32(x); }
FFC_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
FFC_DEV unsigned __byte_perm(unsigned a, unsigned b, unsigned s)
{
    return __nvvm_prmt(a, b, s);
}
FFC_DEV unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}
FFC_DEV unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned r;
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}

/* ---------------------------------------------------------- SIMD byte ops */

/* sum of the absolute differences of the 4 unsigned bytes */
FFC_DEV unsigned __vsadu4(unsigned a, unsigned b)
{
    unsigned r;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
        : "=r"(r) : "r"(a), "r"(b), "r"(0u));
    return r;
}

/* per-byte absolute differences */
FFC_DEV unsigned __vabsdiffu4(unsigned a, unsigned b)
{
    unsigned r;
    asm("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;"
        : "=r"(r) : "r"(a), "r"(b), "r"(0u));
    return r;
}

/* ------------------------------------------------- read-only global loads */

#define FFC_LDG(T, B)                                                         \
FFC_DEV T __ldg(const T *p) { return (T)B(p); }
FFC_LDG(char,               __nvvm_ldg_c)
FFC_LDG(unsigned char,      __nvvm_ldg_uc)
FFC_LDG(short,              __nvvm_ldg_s)
FFC_LDG(unsigned short,     __nvvm_ldg_us)
FFC_LDG(int,                __nvvm_ldg_i)
FFC_LDG(unsigned int,       __nvvm_ldg_ui)
FFC_LDG(long long,          __nvvm_ldg_ll)
FFC_LDG(unsigned long long, __nvvm_ldg_ull)
FFC_LDG(float,              __nvvm_ldg_f)
FFC_LDG(double,             __nvvm_ldg_d)
#undef FFC_LDG

/* 16-byte ld.global.nc.v4 */
FFC_DEV uint4 __ldg(const uint4 *p)
{
    typedef unsigned v4u __attribute__((ext_vector_type(4)));
    v4u v = __nvvm_ldg_ui4((const v4u *)p);
    uint4 r;
    r.x = v[0]; r.y = v[1]; r.z = v[2]; r.w = v[3];
    return r;
}
FFC_DEV int4 __ldg(const int4 *p)
{
    typedef int v4i __attribute__((ext_vector_type(4)));
    v4i v = __nvvm_ldg_i4((const v4i *)p);
    int4 r;
    r.x = v[0]; r.y = v[1]; r.z = v[2]; r.w = v[3];
    return r;
}

/* ---------------------------------------------------------------- atomics */

/* atomicAdd is defined by compat/cuda/cuda_runtime.h. */
FFC_DEV int      atomicSub(int *p, int v)                { return __nvvm_atom_add_gen_i(p, -v); }
FFC_DEV unsigned atomicSub(unsigned *p, unsigned v)      { return (unsigned)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
FFC_DEV int      atomicExch(int *p, int v)               { return __nvvm_atom_xchg_gen_i(p, v); }
FFC_DEV unsigned atomicExch(unsigned *p, unsigned v)     { return (unsigned)__nvvm_atom_xchg_gen_i((int *)p, (int)v); }
FFC_DEV int      atomicMin(int *p, int v)                { return __nvvm_atom_min_gen_i(p, v); }
FFC_DEV unsigned atomicMin(unsigned *p, unsigned v)      { return __nvvm_atom_min_gen_ui(p, v); }
FFC_DEV int      atomicMax(int *p, int v)                { return __nvvm_atom_max_gen_i(p, v); }
FFC_DEV unsigned atomicMax(unsigned *p, unsigned v)      { return __nvvm_atom_max_gen_ui(p, v); }
FFC_DEV unsigned atomicAnd(unsigned *p, unsigned v)      { return (unsigned)__nvvm_atom_and_gen_i((int *)p, (int)v); }
FFC_DEV unsigned atomicOr(unsigned *p, unsigned v)       { return (unsigned)__nvvm_atom_or_gen_i((int *)p, (int)v); }
FFC_DEV unsigned atomicXor(unsigned *p, unsigned v)      { return (unsigned)__nvvm_atom_xor_gen_i((int *)p, (int)v); }
FFC_DEV int      atomicCAS(int *p, int c, int v)         { return __nvvm_atom_cas_gen_i(p, c, v); }
FFC_DEV unsigned atomicCAS(unsigned *p, unsigned c, unsigned v)
{
    return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v);
}
FFC_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long c,
                                     unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c,
                                                      (long long)v);
}

/* ------------------------------------- separately rounded float operations */

/*
 * Add, subtract and multiply are inline PTX: LLVM turns __nvvm_add_rn_f and
 * __nvvm_mul_rn_f into plain fadd/fmul, which clang's default
 * -ffp-contract=fast would fuse into fma.rn. As PTX they stay separately
 * rounded whatever the flags. The others have no fused form.
 */
#define FFC_FOP2(name, T, op, c)                                              \
FFC_DEV T name(T a, T b)                                                      \
{                                                                             \
    T r;                                                                      \
    asm(op " %0, %1, %2;" : "=" c(r) : c(a), c(b));                           \
    return r;                                                                 \
}
FFC_FOP2(__fadd_rn, float,  "add.rn.f32", "f")
FFC_FOP2(__fadd_rz, float,  "add.rz.f32", "f")
FFC_FOP2(__fsub_rn, float,  "sub.rn.f32", "f")
FFC_FOP2(__fmul_rn, float,  "mul.rn.f32", "f")
FFC_FOP2(__fmul_rz, float,  "mul.rz.f32", "f")
FFC_FOP2(__dadd_rn, double, "add.rn.f64", "d")
FFC_FOP2(__dadd_rz, double, "add.rz.f64", "d")
FFC_FOP2(__dsub_rn, double, "sub.rn.f64", "d")
FFC_FOP2(__dmul_rn, double, "mul.rn.f64", "d")
#undef FFC_FOP2

FFC_DEV float __fdiv_rn(float a, float b) { return __nvvm_div_rn_f(a, b); }
FFC_DEV float __frcp_rn(float a)          { return __nvvm_rcp_rn_f(a); }
FFC_DEV float __fsqrt_rn(float a)         { return __nvvm_sqrt_rn_f(a); }
FFC_DEV float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }

FFC_DEV double __ddiv_rn(double a, double b) { return __nvvm_div_rn_d(a, b); }
FFC_DEV double __drcp_rn(double a)           { return __nvvm_rcp_rn_d(a); }
FFC_DEV double __dsqrt_rn(double a)          { return __nvvm_sqrt_rn_d(a); }
FFC_DEV double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }

/* ------------------------------------------------------------ conversions */

FFC_DEV int      __float2int_rn(float a)   { return __nvvm_f2i_rn(a); }
FFC_DEV int      __float2int_rz(float a)   { return __nvvm_f2i_rz(a); }
FFC_DEV int      __float2int_rd(float a)   { return __nvvm_f2i_rm(a); }
FFC_DEV int      __float2int_ru(float a)   { return __nvvm_f2i_rp(a); }
FFC_DEV unsigned __float2uint_rn(float a)  { return __nvvm_f2ui_rn(a); }
FFC_DEV unsigned __float2uint_rz(float a)  { return __nvvm_f2ui_rz(a); }
FFC_DEV float    __int2float_rn(int a)     { return __nvvm_i2f_rn(a); }
FFC_DEV float    __uint2float_rn(unsigned a) { return __nvvm_ui2f_rn(a); }
FFC_DEV float    __double2float_rn(double a) { return __nvvm_d2f_rn(a); }
FFC_DEV float    __double2float_rz(double a) { return __nvvm_d2f_rz(a); }
FFC_DEV int      __double2int_rn(double a) { return __nvvm_d2i_rn(a); }
FFC_DEV int      __double2int_rz(double a) { return __nvvm_d2i_rz(a); }
FFC_DEV double   __int2double_rn(int a)    { return (double)a; }
FFC_DEV int      __float_as_int(float a)   { return __builtin_bit_cast(int, a); }
FFC_DEV unsigned __float_as_uint(float a)  { return __builtin_bit_cast(unsigned, a); }
FFC_DEV float    __int_as_float(int a)     { return __builtin_bit_cast(float, a); }
FFC_DEV float    __uint_as_float(unsigned a) { return __builtin_bit_cast(float, a); }

/* ------------------------------------------------------------------- math */

/*
 * round(): half away from zero, as CUDA's: trunc(a + copysign(0.5, a))
 * with the addition rounded toward zero (exact for every double).
 */
static inline __device__ double round(double a)
{
    return __builtin_trunc(__dadd_rz(a, __builtin_copysign(0.5, a)));
}
static inline __device__ double rint(double a) { return __builtin_rint(a); }
static inline __device__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
static inline __device__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
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

/* unsigned minimum (compat's min() is a macro that evaluates twice) */
static __device__ __forceinline__ unsigned ffc_umin(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

#endif /* KERNELS_CUDA_COMPAT_H */
