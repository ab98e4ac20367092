//! Kernels that update a buffer in place: through two aliasing pointers
//! without `__restrict__` (inplace_shift, inplace_scale), and saxpy's
//! restrict `y = a x + y`.

use rand::Rng;

use super::cases::{covering, elements, fixed_chunks, in_place, ints, le, per_thread};
use crate::apps::{App, Arg, Case};
use crate::inputs;
use crate::sweep::Config;

/// inplace_shift: `dst[i] = src[i] + 1` with `dst = buf`, `src = buf + 1`.
pub struct InplaceShift;

/// The chunk each thread takes at a time.
pub const SHIFT_CHUNK: usize = 64;

/// The buffer after the kernel: every element but the last of each chunk
/// and the last of the buffer becomes its right neighbour's old value plus
/// one (the others stay).
pub fn inplace_shift(buf: &[i32], chunk: usize) -> Vec<i32> {
    let n = buf.len();
    (0..n)
        .map(|i| {
            if i + 1 < n && i % chunk != chunk - 1 {
                buf[i + 1].wrapping_add(1)
            } else {
                buf[i]
            }
        })
        .collect()
}

impl App for InplaceShift {
    fn name(&self) -> &'static str {
        "inplace_shift"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // Read and written in place: 8 bytes of traffic per element.
        let n = elements(bytes, 8).max(2);
        let buf = ints(&mut inputs::rng(seed), n, -(1 << 20), 1 << 20);
        Case {
            outputs: vec![in_place(4 * n, 0)],
            expected: vec![le(&inplace_shift(&buf, SHIFT_CHUNK))],
            inputs: vec![le(&buf)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        // dst = buf, src = buf + 1 element.
        fixed_chunks(
            &[Arg::Output(0), Arg::OutputAt(0, 4)],
            n,
            SHIFT_CHUNK as u64,
        )
    }
    /// One chunk per thread: each block size of the sweep, with the blocks
    /// that cover the input.
    fn configs(&self, case: &Case, sweep: &[Config]) -> Vec<Config> {
        let chunks = (case.inputs[0].len() / 4).div_ceil(SHIFT_CHUNK) as u64;
        covering(chunks, sweep)
    }
}

/// inplace_scale: `a[i] = a[i] * 3 + b[i]`, a and b not restrict.
pub struct InplaceScale;

pub fn inplace_scale(a: &[i32], b: &[i32]) -> Vec<i32> {
    a.iter()
        .zip(b)
        .map(|(&a, &b)| a.wrapping_mul(3).wrapping_add(b))
        .collect()
}

impl App for InplaceScale {
    fn name(&self) -> &'static str {
        "inplace_scale"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let mut r = inputs::rng(seed);
        let a = ints(&mut r, n, i32::MIN, i32::MAX);
        let b = ints(&mut r, n, i32::MIN, i32::MAX);
        Case {
            outputs: vec![in_place(4 * n, 0)],
            expected: vec![le(&inplace_scale(&a, &b))],
            inputs: vec![le(&a), le(&b)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        per_thread(&[Arg::Output(0), Arg::Input(1)], n, threads)
    }
}

/// saxpy: `y = a x + y` on floats that hold small integers.
pub struct Saxpy;

/// The scalar `a`.
pub const SAXPY_A: f32 = 2.0;

pub fn saxpy(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(&x, &y)| a * x + y).collect()
}

impl App for Saxpy {
    fn name(&self) -> &'static str {
        "saxpy"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let mut r = inputs::rng(seed);
        let mut small = || -> Vec<f32> {
            (0..n)
                .map(|_| r.random_range(-1000..=1000) as f32)
                .collect()
        };
        let x = small();
        let y = small();
        Case {
            outputs: vec![in_place(4 * n, 1)],
            expected: vec![le(&saxpy(SAXPY_A, &x, &y))],
            inputs: vec![le(&x), le(&y)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        // The float scalar goes as its 32 bits.
        let mut args = vec![Arg::U32(SAXPY_A.to_bits())];
        args.extend(per_thread(&[Arg::Input(0), Arg::Output(0)], n, threads));
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's own order of updates in one buffer: chunk after chunk in
    /// the given order, each from its first element on, reading the element
    /// to the right after writing its left neighbour.
    fn run_in_place(buf: &mut [i32], chunk: usize, chunks: impl Iterator<Item = usize>) {
        let n = buf.len();
        for c in chunks {
            let begin = c * chunk;
            let end = (begin + chunk - 1).min(n - 1);
            for i in begin..end {
                buf[i] = buf[i + 1].wrapping_add(1);
            }
        }
    }

    #[test]
    fn inplace_shift_launches_a_thread_per_chunk() {
        let case = InplaceShift.case(1 << 20, 1);
        let chunks = (case.inputs[0].len() / 4).div_ceil(SHIFT_CHUNK) as u64;
        let configs = InplaceShift.configs(&case, &crate::sweep::configs(false));
        assert_eq!(configs.len(), 4);
        for c in configs {
            assert!(c.total_threads() >= chunks);
            assert!(c.total_threads() < chunks + u64::from(c.threads));
        }
    }

    #[test]
    fn inplace_shift_by_hand() {
        let buf: Vec<i32> = (0..10).collect();
        // Chunks of 4: [0, 3) and [4, 7) move, 3 and 7 stay, 8 moves, 9 is
        // the last element.
        assert_eq!(inplace_shift(&buf, 4), [2, 3, 4, 3, 6, 7, 8, 7, 10, 9]);
        assert_eq!(inplace_shift(&[5, 6], 64), [7, 6]);
    }

    #[test]
    fn inplace_shift_does_not_depend_on_the_order_of_chunks() {
        let buf: Vec<i32> = (0..1000).map(|i| i * 7 - 3000).collect();
        let want = inplace_shift(&buf, SHIFT_CHUNK);
        let chunks = buf.len().div_ceil(SHIFT_CHUNK);
        let mut forward = buf.clone();
        run_in_place(&mut forward, SHIFT_CHUNK, 0..chunks);
        let mut backward = buf.clone();
        run_in_place(&mut backward, SHIFT_CHUNK, (0..chunks).rev());
        assert_eq!(forward, want);
        assert_eq!(backward, want);
    }

    #[test]
    fn inplace_shift_points_src_one_element_past_dst() {
        let case = InplaceShift.case(4099, 1);
        let args = InplaceShift.args(&case, 96);
        assert_eq!(args[..2], [Arg::Output(0), Arg::OutputAt(0, 4)]);
        assert_eq!(args[3], Arg::U64(64));
    }

    #[test]
    fn inplace_scale_and_saxpy_by_hand() {
        assert_eq!(
            inplace_scale(&[1, -2, i32::MAX], &[10, 0, 0]),
            [13, -6, i32::MAX.wrapping_mul(3)]
        );
        assert_eq!(saxpy(2.0, &[1.0, -3.0], &[5.0, 1.0]), [7.0, -5.0]);
    }
}
