//! The on-GPU half of the differential fuzzing (issue 7): each generated
//! kernel (`sl1-kernelgen`) built with S-L1 and without it, run on the same
//! random inputs; every buffer must come back byte for byte the same. A
//! case is a pure function of the seed, so a mismatch replays from it.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sl1_kernelgen::KernelSpec;

/// One launch of a generated kernel: the launch shape, `n` and `chunk`,
/// the initial bytes of each distinct buffer, and which buffer each
/// pointer argument gets (in-place pairs share one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FuzzCase {
    pub seed: u64,
    pub blocks: u32,
    pub threads: u32,
    pub n: u64,
    pub chunk: u64,
    #[serde(skip)]
    pub buffers: Vec<Vec<u8>>,
    pub buffer_of_arg: Vec<usize>,
}

/// The case of `seed` for `spec` (the kernel of the same seed): a small
/// grid of odd sizes, chunks that leave threads sharing lines (and some
/// threads past `n`), buffers of random bytes.
pub fn case(spec: &KernelSpec, seed: u64) -> FuzzCase {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xF022_CA5E);
    let blocks = rng.random_range(1..=12u32);
    let threads = [32u32, 64, 96, 128, 160, 256][rng.random_range(0..6usize)];
    let total = u64::from(blocks * threads);
    let chunk = rng.random_range(1..=37u64);
    // Up to a few threads' worth past the last full chunk, or short of it.
    let n = (total * chunk)
        .saturating_sub(rng.random_range(0..chunk * 8))
        .max(1);
    let mut buffer_of_arg = Vec::new();
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for (k, arg) in spec.args.iter().enumerate() {
        match arg.alias_of {
            Some(j) => buffer_of_arg.push(buffer_of_arg[j]),
            None => {
                let bytes = spec.buffer_bytes(k, n).max(1) as usize;
                let mut buffer = vec![0u8; bytes];
                rng.fill_bytes(&mut buffer);
                buffers.push(buffer);
                buffer_of_arg.push(buffers.len() - 1);
            }
        }
    }
    FuzzCase {
        seed,
        blocks,
        threads,
        n,
        chunk,
        buffers,
        buffer_of_arg,
    }
}

/// The first byte where two runs' buffers differ: (buffer, offset).
pub fn first_difference(a: &[Vec<u8>], b: &[Vec<u8>]) -> Option<(usize, usize)> {
    a.iter().zip(b).enumerate().find_map(|(i, (x, y))| {
        x.iter()
            .zip(y)
            .position(|(p, q)| p != q)
            .or((x.len() != y.len()).then_some(x.len().min(y.len())))
            .map(|offset| (i, offset))
    })
}

/// Differing bytes of two runs, as (buffer, offset, a's byte, b's byte),
/// at most `limit` of them, and how many there are in all.
pub fn differences(a: &[Vec<u8>], b: &[Vec<u8>], limit: usize) -> (Vec<[usize; 4]>, usize) {
    let mut all = a.iter().zip(b).enumerate().flat_map(|(i, (x, y))| {
        x.iter()
            .zip(y)
            .enumerate()
            .filter(|(_, (p, q))| p != q)
            .map(move |(o, (p, q))| [i, o, usize::from(*p), usize::from(*q)])
    });
    let listed: Vec<_> = all.by_ref().take(limit).collect();
    let count = listed.len() + all.count();
    (listed, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_listed_and_counted() {
        let a = vec![vec![1u8, 2, 3, 4], vec![5, 6]];
        let b = vec![vec![1u8, 9, 3, 8], vec![7, 6]];
        let (listed, count) = differences(&a, &b, 2);
        assert_eq!(listed, vec![[0, 1, 2, 9], [0, 3, 4, 8]]);
        assert_eq!(count, 3);
        assert_eq!(differences(&a, &a, 5), (vec![], 0));
    }

    #[test]
    fn cases_are_reproducible_sized_and_share_in_place_buffers() {
        let mut aliased = 0;
        for seed in 0..60 {
            let spec = sl1_kernelgen::generate(seed).spec;
            let c = case(&spec, seed);
            assert_eq!(c, case(&spec, seed));
            assert_eq!(c.buffer_of_arg.len(), spec.args.len());
            for (k, arg) in spec.args.iter().enumerate() {
                let bytes = c.buffers[c.buffer_of_arg[k]].len() as u64;
                assert_eq!(
                    bytes,
                    spec.buffer_bytes(k, c.n).max(1),
                    "seed {seed} arg {k}"
                );
                if let Some(j) = arg.alias_of {
                    assert_eq!(c.buffer_of_arg[k], c.buffer_of_arg[j]);
                    aliased += 1;
                }
            }
            assert!(c.n >= 1 && c.chunk >= 1 && c.n <= u64::from(c.blocks * c.threads) * c.chunk);
        }
        assert!(aliased > 0, "no in-place pair in 60 seeds");
    }

    #[test]
    fn differences_are_found_where_they_are() {
        let a = vec![vec![1, 2, 3], vec![4, 5]];
        assert_eq!(first_difference(&a, &a), None);
        let mut b = a.clone();
        b[1][1] = 9;
        assert_eq!(first_difference(&a, &b), Some((1, 1)));
        let short = vec![vec![1, 2, 3], vec![4]];
        assert_eq!(first_difference(&a, &short), Some((1, 1)));
    }
}
