//! How the do-no-harm kernels build their cases: inputs, chunks per
//! thread, and the arguments of the usual launch shapes.

use rand::Rng;

pub use crate::apps::le;
use crate::apps::{chunk, par_for_each, Arg, Fill, Output, POISON};
use crate::sweep::Config;

/// Elements in a budget of `bytes` when each takes `per_element` bytes over
/// all the kernel's buffers (at least one).
pub fn elements(bytes: usize, per_element: usize) -> usize {
    (bytes / per_element).max(1)
}

/// `n` integers from `lo..=hi`.
pub fn ints(r: &mut impl Rng, n: usize, lo: i32, hi: i32) -> Vec<i32> {
    (0..n).map(|_| r.random_range(lo..=hi)).collect()
}

/// Calls `f(r, row)` for every row of `row_len` items of `out`, on all the
/// CPU's cores.
pub fn par_rows<T: Send>(out: &mut [T], row_len: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let mut rows: Vec<&mut [T]> = out.chunks_mut(row_len.max(1)).collect();
    par_for_each(&mut rows, |r, row| f(r, row));
}

/// An output poisoned before each run.
pub(super) fn poisoned(bytes: usize) -> Output {
    Output {
        bytes,
        fill: Fill::Byte(POISON),
    }
}

/// An output that is also input `i` (updated in place).
pub(super) fn in_place(bytes: usize, i: usize) -> Output {
    Output {
        bytes,
        fill: Fill::Input(i),
    }
}

/// The launches of a kernel that needs `items` threads, one item each: each
/// block size of the sweep, with the blocks that cover the items.
pub(super) fn covering(items: u64, sweep: &[Config]) -> Vec<Config> {
    let mut threads: Vec<u32> = sweep.iter().map(|c| c.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    threads
        .into_iter()
        .map(|t| Config {
            blocks: items.div_ceil(u64::from(t)) as u32,
            threads: t,
        })
        .collect()
}

/// The arguments of a kernel whose threads each take one contiguous chunk:
/// the pointers, `n`, and the chunk for `threads` threads.
pub(super) fn per_thread(pointers: &[Arg], n: u64, threads: u64) -> Vec<Arg> {
    let mut args = pointers.to_vec();
    args.extend([Arg::U64(n), Arg::U64(chunk(n, threads))]);
    args
}

/// The arguments of a kernel that deals out chunks of a fixed length
/// grid-stride: the pointers, `n`, and the chunk.
pub(super) fn fixed_chunks(pointers: &[Arg], n: u64, chunk: u64) -> Vec<Arg> {
    let mut args = pointers.to_vec();
    args.extend([Arg::U64(n), Arg::U64(chunk)]);
    args
}
