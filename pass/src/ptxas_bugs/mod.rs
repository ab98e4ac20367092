//! A ptxas bug, kept out of every build, and its check in PTX text.
//!
//! PTX lets a store take a register wider than its type and keeps the
//! register's low bits. ptxas (CUDA 12.9 and 13.0, sm_90) instead converts
//! when the register was written by a floating-point operation:
//! `st.global.b32 [a], r` after `add.rn.f64 r, ..` stores `(u32) 6.0 = 6`,
//! not the low word 0 (SASS `F2I.U32.F64.TRUNC`;
//! `testdata/toolchain/st_b32_f64.cu`), and `st.global.b8 [a], r` after
//! `add.rn.f32 r, ..` stores `(u8) 1.75 = 1`, not the low byte 0 (SASS
//! `F2IP.U8.F32.TRUNC`; `testdata/toolchain/st_b8_f32.cu`). NVPTX emits
//! such stores for a float's or double's bits cut to fewer bits and stored
//! or passed to a call, and for an under-aligned double (its two halves).
//! Any transformation can make them: the differential fuzzer met them in
//! plain builds, and in S-L1 builds whose peeled iterations folded the
//! integer operation between a double and its stored low byte away (seed
//! 128610, docs/reliability.md).
//!
//! `float_bits` puts an integer operation the optimizer cannot see through
//! between such bits and their narrow uses, after LLVM's optimizer, in every
//! build; `ptx_check` finds the stores that would still meet the bug.

mod float_bits;
mod ptx_check;

pub use float_bits::keep_float_bits_out_of_narrow_stores;
pub use ptx_check::narrow_store_of_float;
