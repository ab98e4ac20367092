//! Deterministic models of what the probe measures: a set-associative
//! sectored cache walked by the fine-grained pointer chase, a 32-bank shared
//! memory, and saturating throughput curves. Same seed, same series. The
//! inference's tests read them; `simulate` builds a whole GPU from them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::data::{ChasePath, ChaseRun, SharedStrideRun, ThroughputPoint, ThroughputTarget};

/// Which line a full set gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// The least recently used line.
    Lru,
    /// A pseudo-random line (seeded), as some GPU caches appear to do.
    Random,
}

/// Geometry and policy of a simulated cache.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheConfig {
    pub capacity: u64,
    /// Tag granularity: a line holds `line_bytes / sector_bytes` sectors.
    pub line_bytes: u64,
    /// Fill granularity: a miss brings in one sector.
    pub sector_bytes: u64,
    pub ways: u64,
    pub replacement: Replacement,
    /// Index sets by XOR-folding the line's upper bits into `line % sets`
    /// (a power of two then), as GPUs do against partition camping: each
    /// run of `sets` consecutive lines still fills every set once, but the
    /// lines of a set no longer lie `sets` apart, which the paper's method
    /// assumes.
    pub hashed_sets: bool,
}

impl CacheConfig {
    /// An LRU cache with `line % sets` set indexing.
    pub fn lru(capacity: u64, line_bytes: u64, sector_bytes: u64, ways: u64) -> CacheConfig {
        CacheConfig {
            capacity,
            line_bytes,
            sector_bytes,
            ways,
            replacement: Replacement::Lru,
            hashed_sets: false,
        }
    }

    pub fn sets(&self) -> u64 {
        self.capacity / (self.line_bytes * self.ways)
    }

    fn set_of(&self, line: u64) -> usize {
        let sets = self.sets();
        let key = if self.hashed_sets {
            line ^ (line / sets) ^ (line / sets / sets)
        } else {
            line
        };
        (key % sets) as usize
    }
}

#[derive(Clone, Debug)]
struct Way {
    line: u64,
    /// Bit `i`: sector `i` of the line is present.
    sectors: u64,
    last_use: u64,
}

/// The cache's state: per set, the lines it holds.
pub struct Cache {
    config: CacheConfig,
    sets: Vec<Vec<Way>>,
    clock: u64,
    rng: ChaCha8Rng,
}

impl Cache {
    /// Panics on a geometry that does not divide evenly or has more than 64
    /// sectors per line (test inputs, not user data).
    pub fn new(config: CacheConfig, seed: u64) -> Cache {
        let sectors = config.line_bytes / config.sector_bytes;
        assert!(config.sets() > 0 && (1..=64).contains(&sectors));
        assert_eq!(
            config.sets() * config.line_bytes * config.ways,
            config.capacity
        );
        Cache {
            sets: vec![Vec::new(); config.sets() as usize],
            config,
            clock: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Reads byte `addr`: true on a hit. A miss fills the sector, taking a
    /// way for the line first when the line is absent.
    pub fn access(&mut self, addr: u64) -> bool {
        self.clock += 1;
        let line = addr / self.config.line_bytes;
        let bit = 1u64 << ((addr % self.config.line_bytes) / self.config.sector_bytes);
        let set_index = self.config.set_of(line);
        let clock = self.clock;
        if let Some(way) = self.sets[set_index].iter_mut().find(|w| w.line == line) {
            way.last_use = clock;
            let hit = way.sectors & bit != 0;
            way.sectors |= bit;
            return hit;
        }
        let fresh = Way {
            line,
            sectors: bit,
            last_use: clock,
        };
        if (self.sets[set_index].len() as u64) < self.config.ways {
            self.sets[set_index].push(fresh);
        } else {
            let victim = self.victim(set_index);
            self.sets[set_index][victim] = fresh;
        }
        false
    }

    fn victim(&mut self, set_index: usize) -> usize {
        let set = &self.sets[set_index];
        match self.config.replacement {
            Replacement::Lru => (0..set.len()).min_by_key(|&i| set[i].last_use).unwrap_or(0),
            Replacement::Random => self.rng.random_range(0..set.len()),
        }
    }
}

/// Cycles a chase access takes, and the noise on them.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    pub hit: u32,
    pub miss: u32,
    /// A second miss level (a far L2 partition): half the lines, chosen by a
    /// hash of the line, take this instead of `miss`.
    pub far_miss: Option<u32>,
    /// Uniform extra cycles in `0..=jitter` on every access.
    pub jitter: u32,
    /// Chance per access of an outlier (other activity on the GPU).
    pub outlier_rate: f64,
    /// An outlier adds between one and three times this.
    pub outlier_cycles: u32,
}

impl Timing {
    /// Exact latencies, no noise.
    pub fn clean(hit: u32, miss: u32) -> Timing {
        Timing {
            hit,
            miss,
            far_miss: None,
            jitter: 0,
            outlier_rate: 0.0,
            outlier_cycles: 0,
        }
    }

    /// A few cycles of jitter and one access in 500 an outlier of thousands.
    pub fn noisy(hit: u32, miss: u32) -> Timing {
        Timing {
            jitter: 6,
            outlier_rate: 0.002,
            outlier_cycles: 1500,
            ..Timing::clean(hit, miss)
        }
    }

    fn sample(&self, hit: bool, line: u64, rng: &mut ChaCha8Rng) -> u32 {
        let far = line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1;
        let base = match (hit, self.far_miss) {
            (true, _) => self.hit,
            (false, Some(far_miss)) if far => far_miss,
            (false, _) => self.miss,
        };
        let mut cycles = base + rng.random_range(0..=self.jitter);
        if self.outlier_rate > 0.0 && rng.random::<f64>() < self.outlier_rate {
            cycles += self.outlier_cycles * rng.random_range(1..=3);
        }
        cycles
    }
}

/// One simulated chase, shaped like the runner's.
#[derive(Clone, Debug, PartialEq)]
pub struct ChaseSpec {
    pub path: ChasePath,
    pub stride_bytes: u64,
    pub footprint_bytes: u64,
    /// Passes timed after the one warm-up pass.
    pub timed_passes: u64,
    /// Accesses recorded at most (the runner keeps the first few thousand).
    pub record_limit: usize,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Walks `array[j] = (j + stride) % words` through a fresh cache: one
/// warm-up pass, then `timed_passes` passes recorded (up to the limit).
pub fn chase(config: &CacheConfig, spec: &ChaseSpec, timing: &Timing, seed: u64) -> ChaseRun {
    let mut cache = Cache::new(config.clone(), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_CAFE);
    let words = (spec.footprint_bytes / 4).max(1);
    let step = (spec.stride_bytes / 4).max(1) % words;
    let pass = words / gcd(words, step);
    let mut j = 0u64;
    for _ in 0..pass {
        cache.access(j * 4);
        j = (j + step) % words;
    }
    let timed = (pass * spec.timed_passes).min(spec.record_limit as u64);
    let (mut latencies, mut indices) = (Vec::new(), Vec::new());
    for _ in 0..timed {
        let hit = cache.access(j * 4);
        latencies.push(timing.sample(hit, j * 4 / config.line_bytes, &mut rng));
        indices.push(j as u32);
        j = (j + step) % words;
    }
    ChaseRun {
        path: spec.path,
        stride_bytes: spec.stride_bytes,
        footprint_bytes: spec.footprint_bytes,
        latencies,
        indices,
    }
}

/// Conflict degree of a warp reading shared memory with thread `t` at word
/// `t * stride_words`, with 32 banks of 4 B: the most distinct 4-byte words
/// any bank serves. 8-byte words are served a half-warp at a time, so they
/// are conflict-free at stride 1 and at worst 16-way.
pub fn shared_conflict_ways(word_bytes: u32, stride_words: u32) -> u32 {
    let group: u32 = if word_bytes >= 8 { 16 } else { 32 };
    let per_word = u64::from(word_bytes / 4).max(1);
    (0..32 / group)
        .map(|half| {
            let mut words_per_bank = vec![std::collections::BTreeSet::new(); 32];
            for t in half * group..(half + 1) * group {
                let first = u64::from(t) * u64::from(stride_words) * per_word;
                for w in first..first + per_word {
                    words_per_bank[(w % 32) as usize].insert(w);
                }
            }
            words_per_bank
                .iter()
                .map(|s| s.len() as u32)
                .max()
                .unwrap_or(1)
        })
        .max()
        .unwrap_or(1)
}

/// Shared-stride runs under the 32 x 4 B model: `base_cycles` conflict-free,
/// plus `cycles_per_way` for each extra way.
pub fn shared_runs(
    word_sizes: &[u32],
    strides: &[u32],
    base_cycles: f64,
    cycles_per_way: f64,
) -> Vec<SharedStrideRun> {
    let mut runs = Vec::new();
    for &word_bytes in word_sizes {
        for &stride_words in strides {
            let ways = shared_conflict_ways(word_bytes, stride_words);
            runs.push(SharedStrideRun {
                word_bytes,
                stride_words,
                cycles_per_access: base_cycles + cycles_per_way * f64::from(ways - 1),
            });
        }
    }
    runs
}

/// A throughput sweep that saturates: `peak_gbps * T / (T + half_peak_threads)`
/// for `T = blocks * threads` threads in all.
pub fn throughput_curve(
    target: ThroughputTarget,
    coalescing: u32,
    blocks: &[u32],
    threads: &[u32],
    peak_gbps: f64,
    half_peak_threads: f64,
) -> Vec<ThroughputPoint> {
    let mut points = Vec::new();
    for &b in blocks {
        for &t in threads {
            let total = f64::from(b) * f64::from(t);
            let gbps = peak_gbps * total / (total + half_peak_threads);
            let bytes = u64::from(b) * u64::from(t) * 4096;
            points.push(ThroughputPoint {
                target,
                blocks: b,
                threads: t,
                coalescing,
                bytes,
                useful_bytes: bytes * u64::from(coalescing) / 8,
                seconds: bytes as f64 / (gbps * 1e9),
            });
        }
    }
    points
}
