//! The on-GPU half of the differential fuzzing: each generated module
//! (`sl1-kernelgen`) built with S-L1 and without it, run on the same
//! random inputs; every buffer must come back byte for byte the same. A
//! case is a pure function of the seed, so a mismatch replays from it.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sl1_kernelgen::spec::Fill;
use sl1_kernelgen::KernelSpec;

/// One launch: which kernel of the module (index into
/// [`KernelSpec::kernels`]), its grid and block (`x, y`; `z = 1`), and the
/// dynamic shared memory it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Launch {
    pub kernel: usize,
    pub grid: (u32, u32),
    pub block: (u32, u32),
    pub dynamic_shared: u32,
}

impl Launch {
    pub fn threads(&self) -> u64 {
        u64::from(self.grid.0 * self.grid.1) * u64::from(self.block.0 * self.block.1)
    }
}

/// What the host does with a generated module: `n` and `chunk` (the same
/// for every launch), the launches in order (each kernel once), the initial
/// bytes of each distinct buffer, which buffer each pointer argument gets
/// (in-place pairs share one) and how far into it the argument points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FuzzCase {
    pub seed: u64,
    pub n: u64,
    pub chunk: u64,
    pub launches: Vec<Launch>,
    #[serde(skip)]
    pub buffers: Vec<Vec<u8>>,
    pub buffer_of_arg: Vec<usize>,
    pub arg_offsets: Vec<u64>,
}

/// Threads per block: whole warps (collectives need every lane), at most
/// `spec::MAX_THREADS`.
const THREADS: [u32; 6] = [32, 64, 96, 128, 160, 256];

/// The case of `seed` for `spec` (the module of the same seed): small
/// grids of odd sizes, chunks that leave threads sharing lines (and some
/// threads past `n`), buffers filled as `spec` says. A module of one 1-D
/// kernel gets the shape and bytes the first fuzzer drew for its seed.
pub fn case(spec: &KernelSpec, seed: u64) -> FuzzCase {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xF022_CA5E);
    // Shapes of 2-D and later launches: a stream of their own.
    let mut shape = ChaCha8Rng::seed_from_u64(seed ^ 0x5AA9_E000_0000_0000);
    let blocks = rng.random_range(1..=12u32);
    let threads = THREADS[rng.random_range(0..THREADS.len())];
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
                match spec.fill(k) {
                    Fill::Random => rng.fill_bytes(&mut buffer),
                    Fill::SmallIntegers => small_integers(&mut buffer, arg.elem.size(), &mut rng),
                }
                buffers.push(buffer);
                buffer_of_arg.push(buffers.len() - 1);
            }
        }
    }
    let launches = spec
        .kernels
        .iter()
        .enumerate()
        .map(|(k, body)| {
            let (blocks, threads) = match k {
                0 => (blocks, threads),
                _ => (
                    shape.random_range(1..=12u32),
                    THREADS[shape.random_range(0..THREADS.len())],
                ),
            };
            let (grid, block) = match body.two_d {
                false => ((blocks, 1), (threads, 1)),
                true => (split(blocks, &mut shape), split(threads, &mut shape)),
            };
            Launch {
                kernel: k,
                grid,
                block,
                dynamic_shared: body.dynamic_bytes(u64::from(threads)) as u32,
            }
        })
        .collect();
    FuzzCase {
        seed,
        n,
        chunk,
        launches,
        buffers,
        buffer_of_arg,
        arg_offsets: (0..spec.args.len()).map(|k| spec.arg_offset(k)).collect(),
    }
}

/// `count` as `x * y`, `x` one of its divisors.
fn split(count: u32, rng: &mut ChaCha8Rng) -> (u32, u32) {
    let divisors: Vec<u32> = (1..=count).filter(|d| count % d == 0).collect();
    let x = divisors[rng.random_range(0..divisors.len())];
    (x, count / x)
}

/// Float (`size` 4) or double (8) elements, each an integer in
/// `-1024..=1024`: the sums of `fadd` atomics on them stay exact.
fn small_integers(buffer: &mut [u8], size: u64, rng: &mut ChaCha8Rng) {
    for element in buffer.chunks_exact_mut(size as usize) {
        let value = rng.random_range(-1024..=1024i32);
        match size {
            4 => element.copy_from_slice(&(value as f32).to_le_bytes()),
            _ => element.copy_from_slice(&f64::from(value).to_le_bytes()),
        }
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
        use sl1_kernelgen::spec;
        let (mut aliased, mut small, mut two_d) = (0, 0, 0);
        for seed in 0..200 {
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
            assert!(c.n >= 1 && c.chunk >= 1 && c.n <= c.launches[0].threads() * c.chunk);
            assert_eq!(c.launches.len(), spec.kernels.len());
            for (launch, body) in c.launches.iter().zip(&spec.kernels) {
                let per_block = launch.block.0 * launch.block.1;
                assert!(per_block % 32 == 0 && u64::from(per_block) <= spec::MAX_THREADS);
                assert!(body.two_d || (launch.grid.1 == 1 && launch.block.1 == 1));
                assert!(launch.threads() * c.chunk <= 1 << 17);
                let dynamic = u64::from(launch.dynamic_shared);
                assert_eq!(dynamic, body.dynamic_bytes(u64::from(per_block)));
                assert!(dynamic <= spec::MAX_DYNAMIC);
            }
            for (k, arg) in spec.args.iter().enumerate() {
                assert_eq!(c.arg_offsets[k], spec.arg_offset(k));
                if spec.fill(k) == Fill::SmallIntegers {
                    let buffer = &c.buffers[c.buffer_of_arg[k]];
                    let first = match arg.elem.size() {
                        4 => f64::from(f32::from_le_bytes(buffer[..4].try_into().unwrap())),
                        _ => f64::from_le_bytes(buffer[..8].try_into().unwrap()),
                    };
                    assert!(first.fract() == 0.0 && first.abs() <= 1024.0);
                    small += 1;
                }
            }
            two_d += usize::from(c.launches.iter().any(|l| l.grid.1 * l.block.1 > 1));
        }
        assert!(aliased > 0, "no in-place pair in 200 seeds");
        assert!(small > 0, "no float histogram in 200 seeds");
        assert!(two_d > 0, "no 2-D launch in 200 seeds");
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
