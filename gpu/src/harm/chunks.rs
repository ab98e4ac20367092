//! How threads split the work: fixed chunks dealt out grid-stride (short,
//! long, a scan, a reduction and a compaction per chunk), a grid-stride loop
//! over elements, and blocks staging tiles in shared memory between barriers.

use super::cases::{elements, fixed_chunks, ints, le, poisoned};
use crate::apps::{App, Arg, Case, POISON};
use crate::inputs;
use crate::sweep::Config;

/// `out = in * 2 + 1`: the computation of short_chunks and long_chunks.
pub fn twice_plus_one(input: &[i32]) -> Vec<i32> {
    input
        .iter()
        .map(|x| x.wrapping_mul(2).wrapping_add(1))
        .collect()
}

fn twice_plus_one_case(bytes: usize, seed: u64) -> Case {
    let n = elements(bytes, 8);
    let input = ints(&mut inputs::rng(seed), n, i32::MIN, i32::MAX);
    Case {
        outputs: vec![poisoned(4 * n)],
        expected: vec![le(&twice_plus_one(&input))],
        inputs: vec![le(&input)],
    }
}

fn in_out_chunks(case: &Case, chunk: usize) -> Vec<Arg> {
    let n = (case.inputs[0].len() / 4) as u64;
    fixed_chunks(&[Arg::Input(0), Arg::Output(0)], n, chunk as u64)
}

/// short_chunks: chunks of 4 ints.
pub struct ShortChunks;

pub const SHORT_CHUNK: usize = 4;

impl App for ShortChunks {
    fn name(&self) -> &'static str {
        "short_chunks"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        twice_plus_one_case(bytes, seed)
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        in_out_chunks(case, SHORT_CHUNK)
    }
}

/// long_chunks: chunks of 4096 ints.
pub struct LongChunks;

pub const LONG_CHUNK: usize = 4096;

impl App for LongChunks {
    fn name(&self) -> &'static str {
        "long_chunks"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        twice_plus_one_case(bytes, seed)
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        in_out_chunks(case, LONG_CHUNK)
    }
}

/// chunk_scan: inclusive prefix sums within chunks of 256 ints.
pub struct ChunkScan;

pub const SCAN_CHUNK: usize = 256;

pub fn chunk_scan(input: &[i32], chunk: usize) -> Vec<i32> {
    input
        .chunks(chunk)
        .flat_map(|c| {
            c.iter().scan(0i32, |acc, &x| {
                *acc = acc.wrapping_add(x);
                Some(*acc)
            })
        })
        .collect()
}

impl App for ChunkScan {
    fn name(&self) -> &'static str {
        "chunk_scan"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let input = ints(&mut inputs::rng(seed), n, -1000, 1000);
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&chunk_scan(&input, SCAN_CHUNK))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        in_out_chunks(case, SCAN_CHUNK)
    }
}

/// reduce_chunk: the 64-bit sum of each chunk of 1024 ints.
pub struct ReduceChunk;

pub const REDUCE_CHUNK: usize = 1024;

pub fn reduce_chunk(input: &[i32], chunk: usize) -> Vec<i64> {
    input
        .chunks(chunk)
        .map(|c| c.iter().map(|&x| i64::from(x)).sum())
        .collect()
}

impl App for ReduceChunk {
    fn name(&self) -> &'static str {
        "reduce_chunk"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 4);
        let input = ints(&mut inputs::rng(seed), n, i32::MIN, i32::MAX);
        let sums = reduce_chunk(&input, REDUCE_CHUNK);
        Case {
            outputs: vec![poisoned(8 * sums.len())],
            expected: vec![le(&sums)],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        in_out_chunks(case, REDUCE_CHUNK)
    }
}

/// copy_if: per chunk of 256 ints, the multiples of 4 to the front of the
/// chunk's region of the output, and their count.
pub struct CopyIf;

pub const COPY_IF_CHUNK: usize = 256;

/// The output bytes (kept values at the front of each chunk's region, the
/// rest still `poison`) and the counts per chunk.
pub fn copy_if(input: &[i32], chunk: usize, poison: u8) -> (Vec<u8>, Vec<u32>) {
    let mut out = vec![poison; 4 * input.len()];
    let mut counts = Vec::with_capacity(input.len().div_ceil(chunk));
    for (c, values) in input.chunks(chunk).enumerate() {
        let kept: Vec<i32> = values.iter().copied().filter(|v| v & 3 == 0).collect();
        let at = 4 * c * chunk;
        out[at..at + 4 * kept.len()].copy_from_slice(&le(&kept));
        counts.push(kept.len() as u32);
    }
    (out, counts)
}

impl App for CopyIf {
    fn name(&self) -> &'static str {
        "copy_if"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let input = ints(&mut inputs::rng(seed), n, -1000, 1000);
        let (out, counts) = copy_if(&input, COPY_IF_CHUNK, POISON);
        Case {
            outputs: vec![poisoned(4 * n), poisoned(4 * counts.len())],
            expected: vec![out, le(&counts)],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        fixed_chunks(
            &[Arg::Input(0), Arg::Output(0), Arg::Output(1)],
            n,
            COPY_IF_CHUNK as u64,
        )
    }
}

/// grid_stride: `out = in * 3 - 1`, a grid-stride loop over elements.
pub struct GridStride;

impl App for GridStride {
    fn name(&self) -> &'static str {
        "grid_stride"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let input = ints(&mut inputs::rng(seed), n, i32::MIN, i32::MAX);
        let out: Vec<i32> = input
            .iter()
            .map(|x| x.wrapping_mul(3).wrapping_sub(1))
            .collect();
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&out)],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        vec![Arg::Input(0), Arg::Output(0), Arg::U64(n)]
    }
}

/// merge_bins: `MERGE_THREADS` threads (one launch shape, as a program
/// that merges per-block partial results launches them) each sum every
/// `MERGE_THREADS`-th element.
pub struct MergeBins;

/// The grid of merge_bins: 32 blocks of 64 threads (tpacf's merge).
pub const MERGE_GRID: Config = Config {
    blocks: 32,
    threads: 64,
};

/// What merge_bins computes: `out[t]` sums `input[t + k * threads]`.
pub fn merge_bins(input: &[u32], threads: usize) -> Vec<u32> {
    let mut out = vec![0u32; threads];
    for (i, x) in input.iter().enumerate() {
        out[i % threads] = out[i % threads].wrapping_add(*x);
    }
    out
}

impl App for MergeBins {
    fn name(&self) -> &'static str {
        "merge_bins"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // An `int` counts the elements.
        let n = elements(bytes, 4).min(i32::MAX as usize);
        let input: Vec<u32> = ints(&mut inputs::rng(seed), n, 0, 1 << 20)
            .into_iter()
            .map(|x| x as u32)
            .collect();
        let threads = MERGE_GRID.total_threads() as usize;
        Case {
            outputs: vec![poisoned(4 * threads)],
            expected: vec![le(&merge_bins(&input, threads))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u32;
        vec![Arg::Input(0), Arg::Output(0), Arg::U32(n)]
    }
    /// The one launch the reference is for.
    fn configs(&self, _case: &Case, _sweep: &[Config]) -> Vec<Config> {
        vec![MERGE_GRID]
    }
}

/// sync_in_loop: `out[i] = in[i] + in[i ^ 1]` through tiles in shared memory.
pub struct SyncInLoop;

pub fn pair_sums(input: &[i32]) -> Vec<i32> {
    (0..input.len())
        .map(|i| input[i].wrapping_add(input.get(i ^ 1).copied().unwrap_or(0)))
        .collect()
}

impl App for SyncInLoop {
    fn name(&self) -> &'static str {
        "sync_in_loop"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let input = ints(&mut inputs::rng(seed), n, i32::MIN, i32::MAX);
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&pair_sums(&input))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        vec![Arg::Input(0), Arg::Output(0), Arg::U64(n)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_bins_by_hand() {
        // Two threads: 1 + 3 + 5 and 2 + 4.
        assert_eq!(merge_bins(&[1, 2, 3, 4, 5], 2), [9, 6]);
    }

    #[test]
    fn chunk_scan_by_hand() {
        // Chunks of 3 restart the sum: [1 2 3] [4 5 6] [7].
        assert_eq!(
            chunk_scan(&[1, 2, 3, 4, 5, 6, 7], 3),
            [1, 3, 6, 4, 9, 15, 7]
        );
        assert_eq!(
            chunk_scan(&[-5, 5, i32::MAX, 1], 4),
            [-5, 0, i32::MAX, i32::MIN]
        );
        assert_eq!(chunk_scan(&[], 3), Vec::<i32>::new());
    }

    #[test]
    fn reductions_compactions_and_pairs_by_hand() {
        assert_eq!(
            reduce_chunk(&[i32::MAX, i32::MAX, 1, -1, 5], 2),
            [2 * i64::from(i32::MAX), 0, 5]
        );
        let (out, counts) = copy_if(&[4, 1, 8, 3, 5, 0, -4], 3, 0xa5);
        assert_eq!(counts, [2, 1, 1]);
        let words: Vec<u32> = out
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        assert_eq!(
            words,
            [4, 8, 0xa5a5a5a5, 0, 0xa5a5a5a5, 0xa5a5a5a5, (-4i32) as u32]
        );
        assert_eq!(pair_sums(&[1, 2, 3, 4, 5]), [3, 3, 7, 7, 5]);
        assert_eq!(twice_plus_one(&[0, -1, i32::MAX]), [1, -1, -1]);
    }
}
