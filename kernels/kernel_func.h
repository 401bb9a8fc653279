/*
 * Qualifiers of the functions kernels share with their CPU twins
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
 * The kernel headers are compiled twice: as CUDA for the kernels and as
 * host C or C++ for their CPU twins and tests. This header says which, and
 * defines the qualifiers of their functions once for all of them:
 *
 *   KERNEL_GPU          1 in a CUDA compilation (clang or nvcc), else 0
 *   KERNEL_INLINE       static __device__ __inline__ on the GPU,
 *                       static inline on the host
 *   KERNEL_FORCEINLINE  static __device__ __forceinline__ on the GPU (where
 *                       inlining matters for speed), static inline on the
 *                       host
 *   KERNEL_DEVICE_CODE  1 where the device-only code (templates on the
 *                       CUDA built-ins: threadIdx, warp shuffles, shared
 *                       memory) is compiled: on the GPU, and on the host
 *                       where a test defines KERNEL_EMULATE, and those
 *                       built-ins for one thread, before the first kernel
 *                       header
 *
 * Plain preprocessor only: nothing here needs cuda_compat.h.
 */

#ifndef KERNELS_KERNEL_FUNC_H
#define KERNELS_KERNEL_FUNC_H

#if defined(__CUDACC__) || defined(__CUDA__)
#define KERNEL_GPU 1
#define KERNEL_INLINE      static __device__ __inline__
#define KERNEL_FORCEINLINE static __device__ __forceinline__
#else
#define KERNEL_GPU 0
#define KERNEL_INLINE      static inline
#define KERNEL_FORCEINLINE static inline
#endif

#if KERNEL_GPU || defined(KERNEL_EMULATE)
#define KERNEL_DEVICE_CODE 1
#else
#define KERNEL_DEVICE_CODE 0
#endif

#endif /* KERNELS_KERNEL_FUNC_H */
