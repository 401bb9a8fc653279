;******************************************************************************
;* Codec63 DSP functions: x86 SIMD
;*
;* This file is part of FFmpeg.
;*
;* FFmpeg is free software; you can redistribute it and/or
;* modify it under the terms of the GNU Lesser General Public
;* License as published by the Free Software Foundation; either
;* version 2.1 of the License, or (at your option) any later version.
;*
;* FFmpeg is distributed in the hope that it will be useful,
;* but WITHOUT ANY WARRANTY; without even the implied warranty of
;* MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
;* Lesser General Public License for more details.
;*
;* You should have received a copy of the GNU Lesser General Public
;* License along with FFmpeg; if not, write to the Free Software
;* Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
;******************************************************************************

; The transforms follow the float chain of docs/c63-format.md (sections 6.3
; to 6.6 and 7.5) operation for operation:
; every product and every sum is a separate vmulps / vaddps (never an FMA),
; summed in increasing j, so each lane computes exactly what the scalar
; reference computes. The one liberty taken: a sum starts from its first
; product rather than from 0.0f + that product, which differs only in the
; sign of a zero, and every value is converted to an integer at the end,
; where -0 and +0 both give 0.

%include "libavutil/x86/x86util.asm"

SECTION_RODATA 32

; The reference's DCT basis T[i][j] (docs/c63-format.md section 6.5), row i
; at 32 * i, and its transpose Tt[j][i] = T[i][j]: the C tables of
; c63data.c (32-byte aligned), which c63dct.h builds from the literals of
; cuda_kernels/c63_dct.h.
cextern c63_dct_lookup
cextern c63_dct_transposed

; 32-byte constants (aligned, for mova) first, then the smaller ones.

; The scale a_u (by column u) and a_v (by row v) of each zigzag position:
; 1/sqrt(2) (the reference's 0.70710678118654f) where u (v) is 0, else 1.
%define ISQ 0.70710678118654
c63_scale_u_zz: dd ISQ, 1.0, ISQ, ISQ, 1.0, 1.0, 1.0, 1.0, 1.0, ISQ, ISQ, 1.0, 1.0, 1.0, 1.0, 1.0
                dd 1.0, 1.0, 1.0, 1.0, ISQ, ISQ, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
                dd 1.0, 1.0, 1.0, ISQ, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
                dd 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
c63_scale_v_zz: dd ISQ, ISQ, 1.0, 1.0, 1.0, ISQ, ISQ, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, ISQ, ISQ
                dd 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, ISQ, ISQ, 1.0, 1.0, 1.0
                dd 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
                dd 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
; a_u of each column, for a row in natural order.
c63_scale_row:  dd ISQ, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0

c63_me_idx:     dw 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
c63_pw_16:      times 16 dw 16
c63_pw_128:     times 16 dw 128
c63_pd_2:       times 8 dd 2
c63_ac_mask:    dw 0
                times 63 dw -1
; the zigzag positions outside the top-left 4x4 quadrant
c63_quad_mask:  dw  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, -1,  0,  0,  0, -1, -1
                dw -1,  0,  0, -1, -1, -1, -1, -1,  0, -1, -1, -1, -1, -1, -1, -1
                times 32 dw -1
c63_pd_7fff:    times 4 dd 0x7fff     ; (16 bytes: the 32-byte constants come first)
c63_zero:       times 8 db 0

c63_isqrt2:     dd ISQ
c63_int16_min:  dd -32768.0
c63_int16_max:  dd 32767.0
c63_pd_quarter: dq 0.25
c63_pd_half:    dq 0.5
c63_pd_mhalf:   dq -0.5
c63_pd_one:     dq 1.0

SECTION .text

;------------------------------------------------------------------------------
; PRED_SETUP pred, pred stride, iterations: a NULL prediction becomes a row
; of zeros read again for every row; m3 = 0, cnt = iterations.
;------------------------------------------------------------------------------
%macro PRED_SETUP 3
    test      %1q, %1q
    jnz %%have
    lea       %1q, [c63_zero]
    xor       %2d, %2d
%%have:
    pxor        m3, m3
    mov       cntd, %3
%endmacro

;------------------------------------------------------------------------------
; void ff_c63_sub_pred(int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
;                      const uint8_t *pred, ptrdiff_t pred_stride)
;------------------------------------------------------------------------------
INIT_XMM sse2
cglobal c63_sub_pred, 5, 6, 4, res, src, sstride, pred, pstride, cnt
    PRED_SETUP pred, pstride, 8
.loop:
    movq        m0, [srcq]
    movq        m2, [predq]
    punpcklbw   m0, m3
    punpcklbw   m2, m3
    psubw       m0, m2
    mova   [resq], m0
    add       srcq, sstrideq
    add      predq, pstrideq
    add       resq, 16
    dec       cntd
    jnz .loop
    RET

;------------------------------------------------------------------------------
; void ff_c63_add_pred(uint8_t *dst, ptrdiff_t dst_stride,
;                      const uint8_t *pred, ptrdiff_t pred_stride,
;                      const int16_t res[64])
; dst = clip(pred + res, 0, 255): the saturating add keeps the sign and the
; overflow, the unsigned pack clips.
;------------------------------------------------------------------------------
INIT_XMM sse2
cglobal c63_add_pred, 5, 6, 4, dst, dstride, pred, pstride, res, cnt
    PRED_SETUP pred, pstride, 4
.loop:
    movq        m0, [predq]
    movq        m1, [predq + pstrideq]
    punpcklbw   m0, m3
    punpcklbw   m1, m3
    paddsw      m0, [resq]
    paddsw      m1, [resq + 16]
    packuswb    m0, m1
    movq    [dstq], m0
    movhps  [dstq + dstrideq], m0
    lea       dstq, [dstq + 2 * dstrideq]
    lea      predq, [predq + 2 * pstrideq]
    add       resq, 32
    dec       cntd
    jnz .loop
    RET

%if HAVE_AVX2_EXTERNAL && ARCH_X86_64

;------------------------------------------------------------------------------
; SAD16 acc, t0, t1, t2: the SADs of sixteen candidates in a row (words of
; acc; low lane x..x+7, high lane x+8..x+15) whose block rows are at p0q,
; p0q + stride, .., p0q + 3 * stride, then p1q (= p0q + 4 * stride)
; likewise, against the block rows in m0..m7 (each broadcast to every qword).
;------------------------------------------------------------------------------
%macro SAD16 4
%assign v_i 0
%rep 8
%if v_i < 4
    %xdefine ROWBASE p0q
%else
    %xdefine ROWBASE p1q
%endif
%if v_i % 4 == 0
    %xdefine ROWADDR ROWBASE
%elif v_i % 4 == 1
    %xdefine ROWADDR ROWBASE + strideq
%elif v_i % 4 == 2
    %xdefine ROWADDR ROWBASE + strideq * 2
%else
    %xdefine ROWADDR ROWBASE + stride3q
%endif
    %xdefine BLKROW m %+ v_i
    movu          xm%2, [ROWADDR]
    vinserti128    m%2, m%2, [ROWADDR + 8], 1
%if v_i == 0
    vmpsadbw       m%1, m%2, BLKROW, 0x00
%else
    vmpsadbw       m%3, m%2, BLKROW, 0x00
    paddw          m%1, m%3
%endif
    vmpsadbw       m%4, m%2, BLKROW, 0x2d
    paddw          m%1, m%4
%assign v_i v_i+1
%endrep
%endmacro

;------------------------------------------------------------------------------
; uint32_t ff_c63_me_search(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
;                           int nx, int ny, const uint16_t *sums, int seed)
;
; SADs of the 8x8 block blk against the nx x ny candidates whose top-left
; corner is ref + y * stride + x (1 <= nx, ny <= 128). Returns
; (sad << 16) | (y << 7) | x of the smallest SAD, the first in scan order
; (y outer, x inner) among equals, since the key orders as that scan does.
;
; Sixteen candidates of one row at a time: vmpsadbw gives eight 4-byte SADs
; per lane; the low lane takes candidates x..x+7, the high lane x+8..x+15;
; two of them (bytes 0-3, bytes 4-7 of the block row) per block row. Reads
; up to 15 bytes past the last candidate's block row (never past the row
; below it, which exists).
;
; The candidate seed = (y << 7) | x (if not negative) is evaluated first.
; Then a group of sixteen is skipped when the lower bound
; sum over k of |blk's rows 2k, 2k+1 - sums[x + 2k * stride]| of every one
; of them (sums: the 8x2 sums of ref's blocks, same stride, in uint16)
; exceeds the SAD of a candidate already found (the seed's, then the best
; at the end of each row): none of them can be the result. sums is read
; 16 entries at a time, past the window like ref.
;------------------------------------------------------------------------------
INIT_YMM avx2
cglobal c63_me_search, 7, 12, 16, 192, blk, ref, stride, nx, ny, sums, seed, x, p0, p1, stride3
%assign v_i 0
%rep 8
    vpbroadcastq m %+ v_i, [blkq]
    add       blkq, strideq
%assign v_i v_i+1
%endrep
    lea   stride3q, [strideq * 3]

    ; the sums of blk's row pairs, each in every word, at rsp + 64 + 32 * k
    pxor      xm15, xm15
%assign v_i 0
%rep 4
%assign v_a 2 * v_i
%assign v_b 2 * v_i + 1
    psadbw    xm11, xmm %+ v_a, xm15
    psadbw    xm12, xmm %+ v_b, xm15
    paddw     xm11, xm12
    vpbroadcastw m11, xm11
    mova [rsp + 64 + 32 * v_i], m11
%assign v_i v_i+1
%endrep

    ; the seed's key, or all ones
    pcmpeqd     m8, m8
    mov       p1d, 0x7fff               ; bound: SAD of a candidate found
    test     seedd, seedd
    js .noseed
    mov        p0d, seedd
    shr        p0d, 7
    imul       p0q, strideq
    add        p0q, refq
    mov         xd, seedd
    and         xd, 127
    add        p0q, xq
%assign v_i 0
%rep 8
    movq      xm13, [p0q]
    psadbw    xm13, xmm %+ v_i
%if v_i == 0
    mova      xm12, xm13
%else
    paddw     xm12, xm13
%endif
%if v_i < 7
    add        p0q, strideq
%endif
%assign v_i v_i+1
%endrep
    movd       p1d, xm12
    mov        p0d, p1d
    shl        p0d, 16
    or         p0d, seedd
    movd       xm8, p0d
    vpbroadcastd m8, xm8
.noseed:
    movd      xm12, p1d
    vpbroadcastw m12, xm12
    mova [rsp + 32], m12

    lea        p0d, [nxq - 1]
    movd       xm9, p0d
    vpbroadcastw m9, xm9                ; (y << 7) | (nx - 1): columns past it are masked
    mova       m10, [c63_me_idx]
    mova     [rsp], m10                 ; (y << 7) | x of the row's first group
.row:
    mova       m10, [rsp]
    xor         xd, xd
    xor       blkd, blkd                ; groups evaluated in the row (blk is spent)
.group:
    lea        p0q, [sumsq + 2 * xq]
    movu       m13, [p0q]
    psubw      m13, [rsp + 64]
    pabsw      m13, m13
    movu       m14, [p0q + strideq * 4]     ; 2 rows down
    psubw      m14, [rsp + 96]
    pabsw      m14, m14
    paddw      m13, m14
    movu       m14, [p0q + strideq * 8]
    psubw      m14, [rsp + 128]
    pabsw      m14, m14
    paddw      m13, m14
    movu       m14, [p0q + stride3q * 4]
    psubw      m14, [rsp + 160]
    pabsw      m14, m14
    paddw      m13, m14
    pcmpgtw    m13, [rsp + 32]
    pmovmskb   p0d, m13
    cmp        p0d, -1
    je .skip
    lea        p0q, [refq + xq]
    lea        p1q, [p0q + strideq * 4]
    SAD16 12, 13, 14, 15
    pcmpgtw    m13, m10, m9             ; columns past the window
    por        m12, m13
    punpcklwd  m14, m10, m12            ; (sad << 16) | (y << 7) | x
    punpckhwd  m15, m10, m12
    pminud      m8, m14
    pminud      m8, m15
    inc       blkd
.skip:
    paddw      m10, [c63_pw_16]
    add         xd, 16
    cmp         xd, nxd
    jl .group

    ; the row's best bounds the next rows
    test      blkd, blkd
    jz .next_row
    vextracti128 xm13, m8, 1
    pminud     xm13, xm8
    pshufd     xm14, xm13, q1032
    pminud     xm13, xm14
    pshufd     xm14, xm13, q2301
    pminud     xm13, xm14
    psrld      xm13, 16
    pminud     xm13, [c63_pd_7fff]
    vpbroadcastw m13, xm13
    mova [rsp + 32], m13
.next_row:
    mova       m13, [c63_pw_128]
    paddw      m14, m13, [rsp]
    mova     [rsp], m14
    paddw       m9, m13
    add       refq, strideq
    lea      sumsq, [sumsq + strideq * 2]
    dec        nyd
    jg .row

    vextracti128 xm0, m8, 1
    pminud     xm0, xm8
    pshufd     xm1, xm0, q1032
    pminud     xm0, xm1
    pshufd     xm1, xm0, q2301
    pminud     xm0, xm1
    movd       eax, xm0
    RET

;------------------------------------------------------------------------------
; void ff_c63_block_sums(uint16_t *dst, const uint8_t *src, ptrdiff_t stride, int n)
;
; dst[x] = sum of the 8x2 block at src + x, for 0 <= x < n (n a multiple of
; 16): its SAD against zeros, sixteen at a time as in me_search. Reads src
; rows 0 and 1 up to byte n + 7.
;------------------------------------------------------------------------------
cglobal c63_block_sums, 4, 5, 5, dst, src, stride, n, x
    add    strideq, srcq                ; the second row
    pxor        m4, m4
    xor         xd, xd
.loop:
    movu       xm0, [srcq + xq]
    vinserti128 m0, m0, [srcq + xq + 8], 1
    movu       xm1, [strideq + xq]
    vinserti128 m1, m1, [strideq + xq + 8], 1
    vmpsadbw    m2, m0, m4, 0x00
    vmpsadbw    m3, m0, m4, 0x2d
    paddw       m2, m3
    vmpsadbw    m3, m1, m4, 0x00
    paddw       m2, m3
    vmpsadbw    m3, m1, m4, 0x2d
    paddw       m2, m3
    movu [dstq + 2 * xq], m2
    add         xd, 16
    cmp         xd, nd
    jl .loop
    RET

;------------------------------------------------------------------------------
; The 1-D transforms. PASS_ROWS B[, n]: Y[r] = sum_j X[r][j] * B[j] for
; rows r < n (default 8) and j < n, X scalars broadcast from memory (XADDR
; r, j gives the address XA of X[r][j]), B rows from memory, results in
; m0..m7.
; PASS_COL M, i[, n]: Z[i] = sum_j Y[j] * M[j][i] for j < n, M scalars
; from memory, Y in m0..m7 (kept), into m14 (m15 is spent).
; With n = 4 they are the transforms of a block whose coefficients outside
; the top-left 4x4 quadrant are zero: the terms left out are products with
; zeros, which add only zeros.
;------------------------------------------------------------------------------
%macro PASS_ROWS 1-2 8 ; B table, rows and terms
%assign v_r 0
%rep %2
%assign v_j 0
%rep %2
    XADDR v_r, v_j
    vbroadcastss   m9, [XA]
%if v_j == 0
    mulps        m %+ v_r, m9, [%1 + 32 * v_j]
%else
    mulps          m9, [%1 + 32 * v_j]
    addps        m %+ v_r, m9
%endif
%assign v_j v_j+1
%endrep
%assign v_r v_r+1
%endrep
%endmacro

%macro PASS_COL 2-3 8 ; M table, destination row i, terms
    vbroadcastss   m15, [%1 + 4 * (0 * 8 + %2)]
    mulps          m14, m0, m15
%assign v_j 1
%rep %3 - 1
    vbroadcastss   m15, [%1 + 4 * (v_j * 8 + %2)]
    mulps          m15, m %+ v_j
    addps          m14, m15
%assign v_j v_j+1
%endrep
%endmacro

;------------------------------------------------------------------------------
; DEF_TABLE name, 64 numbers: name0 .. name63 as assemble-time constants.
;------------------------------------------------------------------------------
%macro DEF_TABLE 65
%xdefine %%name %1
%rotate 1
%assign %%n 0
%rep 64
    CAT_XDEFINE %%name, %%n, %1
    %rotate 1
%assign %%n %%n+1
%endrep
%endmacro

; zigzag position k is natural position ZZ_k (ff_zigzag_direct)
DEF_TABLE ZZ_, \
         0,  1,  8, 16,  9,  2,  3, 10, 17, 24, 32, 25, 18, 11,  4,  5, \
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,  6,  7, 14, 21, 28, \
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, \
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63

;------------------------------------------------------------------------------
; void ff_c63_fdct_quant(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
;------------------------------------------------------------------------------
%macro XADDR 2
    %define XA rsp + 32 * %1 + 4 * %2
%endmacro

cglobal c63_fdct_quant, 3, 3, 16, 256, coef, res, q
    ; the residual as floats, natural order, on the stack
%assign v_r 0
%rep 8
    pmovsxwd       m0, [resq + 16 * v_r]
    cvtdq2ps       m0, m0
    movu  [rsp + 32 * v_r], m0
%assign v_r v_r+1
%endrep
    PASS_ROWS c63_dct_lookup
    ; Z[i] = sum_j Y[j] * T[j][i]; scaled, (z * a_u) * a_v, and stored
    vbroadcastss   m13, [c63_isqrt2]
%assign v_i 0
%rep 8
    PASS_COL c63_dct_lookup, v_i
    mulps          m14, [c63_scale_row]
%if v_i == 0
    mulps          m14, m13
%endif
    movu  [rsp + 32 * v_i], m14
%assign v_i v_i+1
%endrep

    ; zigzag order, then coef = round(d / 4.0 / q) in double
    movsd          xm10, [c63_pd_quarter]
    vbroadcastsd    m10, xm10
    vbroadcastsd    m11, [c63_pd_half]
    vbroadcastsd    m12, [c63_pd_mhalf]
    vbroadcastsd    m13, [c63_pd_one]
%assign v_g 0
%rep 8
%assign v_h 0
%rep 2
    ; the four floats of zigzag positions k .. k + 3 (scalar loads: on some
    ; CPUs, gathers are far slower)
%assign v_k 8 * v_g + 4 * v_h
    movss          xm0, [rsp + 4 * ZZ_ %+ v_k]
%assign v_k v_k+1
    insertps       xm0, [rsp + 4 * ZZ_ %+ v_k], 0x10
%assign v_k v_k+1
    insertps       xm0, [rsp + 4 * ZZ_ %+ v_k], 0x20
%assign v_k v_k+1
    insertps       xm0, [rsp + 4 * ZZ_ %+ v_k], 0x30
    cvtps2pd        m3, xm0
    mulpd           m3, m10                 ; d / 4.0 (exact)
    pmovzxbd       xm4, [qq + 8 * v_g + 4 * v_h]
    cvtdq2pd        m4, xm4
    divpd           m3, m4                  ; / q
    roundpd         m4, m3, 3               ; t = trunc(x)
    subpd           m3, m4                  ; f = x - t, exact
    cmppd           m5, m3, m11, 13         ; f >= 0.5
    cmppd           m3, m12, 2              ; f <= -0.5
    andpd           m5, m13
    andpd           m3, m13
    addpd           m4, m5
    subpd           m4, m3
%if v_h == 0
    cvttpd2dq      xm6, m4
%else
    cvttpd2dq      xm7, m4
%endif
%assign v_h v_h+1
%endrep
    packssdw       xm0, xm6, xm7
    movu  [coefq + 16 * v_g], xm0
%assign v_g v_g+1
%endrep
    RET

;------------------------------------------------------------------------------
; void ff_c63_dequant_idct_add(uint8_t *dst, ptrdiff_t dst_stride,
;                              const uint8_t *pred, ptrdiff_t pred_stride,
;                              const int16_t coef[64], const uint8_t q[64], int n)
; The residual of the block (dequant_idct_c) added to the prediction and
; clipped as add_pred does, each row as the transform's second pass gives it.
; The coefficients outside the top-left n x n of the block (frequency rows and
; columns, natural order) are zero. With n = 8 the function looks for the
; DC-only and 4 x 4 cases itself; below 8 it takes n as given.
;------------------------------------------------------------------------------
; natural position n = 8 * r + j is zigzag position ZZI_n
DEF_TABLE ZZI_, \
         0,  1,  5,  6, 14, 15, 27, 28,  2,  4,  7, 13, 16, 26, 29, 42, \
         3,  8, 12, 17, 25, 30, 41, 43,  9, 11, 18, 24, 31, 40, 44, 53, \
        10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38, 46, 51, 55, 60, \
        21, 34, 37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63

%unmacro XADDR 2
%macro XADDR 2
    %assign %%n %1 * 8 + %2
    %xdefine XA rsp + 4 * ZZI_ %+ %%n
%endmacro

; the residual's row %1 (int16) added to the prediction's row, clipped and
; stored; the next rows; xm11 = 0
%macro ADD_PRED_ROW 1
    movq          xm15, [predq]
    punpcklbw     xm15, xm11
    paddsw        xm15, %1
    packuswb      xm15, xm15
    movq         [dstq], xm15
    add           dstq, dstrideq
    add          predq, pstrideq
%endmacro

; the second pass, clamped and converted into the residual on the stack (the
; first pass's input is spent), then added to the prediction; %1 terms
%macro IDCT_COLS 1
    vbroadcastss   m12, [c63_int16_min]
    vbroadcastss   m13, [c63_int16_max]
%assign v_i 0
%rep 8
    PASS_COL c63_dct_transposed, v_i, %1
    maxps          m14, m12
    minps          m14, m13
    cvttps2dq      m14, m14
    vextracti128  xm15, m14, 1
    packssdw      xm14, xm15
    mova  [rsp + 16 * v_i], xm14
%assign v_i v_i+1
%endrep
    pxor          xm11, xm11
%assign v_i 0
%rep 8
    ADD_PRED_ROW  [rsp + 16 * v_i]
%assign v_i v_i+1
%endrep
    RET
%endmacro

; ZF set when every coefficient where the 64-word mask %1 is set is zero
%macro MASKED_ANY 1
    movu            m0, [inq]
    pand            m0, [%1]
%assign v_g 1
%rep 3
    movu            m1, [inq + 32 * v_g]
    pand            m1, [%1 + 32 * v_g]
    por             m0, m1
%assign v_g v_g+1
%endrep
    ptest           m0, m0
%endmacro

; .n%1: the transform of a block within the top-left %1 x %1, whose
; coefficients are all in the first %2 groups of 8 in zigzag order.
; c = round(coef * q / 4) half away from zero, as float, then (c * a_u) * a_v,
; zigzag order on the stack.
%macro IDCT_N 2
.n%1:
    mova            m3, [c63_pd_2]
%assign v_g 0
%rep %2
    pmovsxwd        m0, [inq + 16 * v_g]
    pmovzxbd        m1, [qtq + 8 * v_g]
    pmulld          m0, m1
    psrad           m1, m0, 31
    paddd           m0, m3
    paddd           m0, m1
    psrad           m0, 2
    cvtdq2ps        m0, m0
    mulps           m0, [c63_scale_u_zz + 32 * v_g]
    mulps           m0, [c63_scale_v_zz + 32 * v_g]
    movu  [rsp + 32 * v_g], m0
%assign v_g v_g+1
%endrep
    PASS_ROWS c63_dct_transposed, %1
    IDCT_COLS %1
%endmacro

cglobal c63_dequant_idct_add, 7, 8, 16, 256, dst, dstride, pred, pstride, in, qt, n, dc
    ; a NULL prediction: a row of zeros read again for every row
    test         predq, predq
    jnz .have_pred
    lea          predq, [c63_zero]
    xor       pstrided, pstrided
.have_pred:
    cmp             nd, 8
    jb .bounded
    ; all AC coefficients zero: every output is the scaled DC
    MASKED_ANY c63_ac_mask
    jz .dc_only
    ; no coefficient outside the top-left 4x4 quadrant
    MASKED_ANY c63_quad_mask
    jz .n4
    IDCT_N 8, 8

.bounded:
    cmp             nd, 1
    jle .dc_only
    mov             nd, nd
    lea            dcq, [.table - 8]
    movsxd          nq, dword [dcq + 4 * nq]
    lea            dcq, [.table]
    add             nq, dcq
    jmp             nq
.table:
    dd .n2 - .table, .n3 - .table, .n4 - .table, .n5 - .table, .n6 - .table, .n7 - .table

    ; the highest zigzag position within n x n: 4, 12, 24, 39, 51, 59
    IDCT_N 2, 1
    IDCT_N 3, 2
    IDCT_N 4, 4
    IDCT_N 5, 5
    IDCT_N 6, 7
    IDCT_N 7, 8

.dc_only:
    movsx          dcd, word [inq]
    movzx           nd, byte [qtq]
    imul           dcd, nd
    mov             nd, dcd
    sar             nd, 31
    lea            dcd, [dcq + nq + 2]
    sar            dcd, 2
    cvtsi2ss       xm0, dcd
    mulss          xm0, [c63_isqrt2]
    mulss          xm0, [c63_isqrt2]
    maxss          xm0, [c63_int16_min]
    minss          xm0, [c63_int16_max]
    cvttss2si      dcd, xm0
    movd          xm14, dcd
    vpbroadcastw  xm10, xm14
    pxor          xm11, xm11
%rep 8
    ADD_PRED_ROW  xm10
%endrep
    RET

%endif ; HAVE_AVX2_EXTERNAL && ARCH_X86_64
