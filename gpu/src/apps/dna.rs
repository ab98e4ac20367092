//! dna, DNA assembly: the overlap step that merges short reads into longer
//! sequences (3 data structures): fixed-length reads, a hash table of the
//! reads' 32-base prefixes, and each read's successor and overlap.

use rand::Rng;

use super::app::{chunk, le, par_for_each, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Dna;

/// Bases per read; each read is followed by '\n'.
pub const READ_LEN: usize = 100;
/// Bases of the prefix the table is keyed on (two bits each: one `u64`).
pub const K: usize = 32;
/// The shortest overlap that merges two reads.
pub const MIN_OVERLAP: usize = 40;
/// Bases of an overlap that may differ (sequencing errors).
pub const MAX_MISMATCH: u32 = 3;
/// Reads covering each base of the genome, on average.
pub const COVERAGE: usize = 30;
/// One sequencing error every this many bases, on average.
pub const ERROR_SPACING: usize = 250;
/// No successor.
pub const NONE: u32 = u32::MAX;
/// An empty table slot.
pub const EMPTY: u64 = u64::MAX;

const BASES: &[u8; 4] = b"ACGT";

/// A random genome of `bases` bases, with a few repeated segments (one of 300
/// bases per 5000), which make some overlaps ambiguous as in real genomes.
pub fn genome(bases: usize, r: &mut impl Rng) -> Vec<u8> {
    let mut g: Vec<u8> = (0..bases).map(|_| BASES[r.random_range(0..4)]).collect();
    const REPEAT: usize = 300;
    if bases > 2 * REPEAT {
        for _ in 0..bases / 5000 {
            let from = r.random_range(0..bases - REPEAT);
            let to = r.random_range(0..bases - REPEAT);
            g.copy_within(from..from + REPEAT, to);
        }
    }
    g
}

/// `count` reads of `READ_LEN` bases from random positions of `genome` (in
/// random order), each followed by '\n'; with `errors`, about one base in
/// `ERROR_SPACING` is misread (one misread in 16 is an 'N').
pub fn sample(genome: &[u8], count: usize, errors: bool, r: &mut impl Rng) -> Vec<u8> {
    assert!(genome.len() >= READ_LEN);
    let mut out = Vec::with_capacity(count * (READ_LEN + 1));
    for _ in 0..count {
        let at = r.random_range(0..=genome.len() - READ_LEN);
        out.extend_from_slice(&genome[at..at + READ_LEN]);
        out.push(b'\n');
    }
    if errors {
        let mut at = r.random_range(0..ERROR_SPACING);
        while at < out.len() {
            if let Some(b) = BASES.iter().position(|&c| c == out[at]) {
                out[at] = if r.random_range(0..16) == 0 {
                    b'N'
                } else {
                    BASES[(b + r.random_range(1..4)) % 4]
                };
            }
            at += r.random_range(1..2 * ERROR_SPACING);
        }
    }
    out
}

/// `count` reads of a genome that they cover `COVERAGE` times, with errors.
pub fn reads(count: usize, seed: u64) -> Vec<u8> {
    let mut r = inputs::rng(seed);
    let bases = (count * READ_LEN / COVERAGE).max(2 * READ_LEN);
    let g = genome(bases, &mut r);
    sample(&g, count, true, &mut r)
}

/// The 32 bases of `bases` packed two bits each, the first one highest; `None`
/// if one of them is not A, C, G or T.
pub fn code(bases: &[u8]) -> Option<u64> {
    let mut key = 0u64;
    let mut valid = true;
    for &c in &bases[..K] {
        let b = match c {
            b'A' => 0,
            b'C' => 1,
            b'G' => 2,
            b'T' => 3,
            _ => 4,
        };
        valid &= b < 4;
        key = key << 2 | (b & 3);
    }
    valid.then_some(key)
}

fn home(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E3779B97F4A7C15) >> (64 - bits)) as usize
}

/// The table of read prefixes: `1 << bits` slots of (prefix code, read index),
/// at least twice as many as reads, filled by linear probing; reads whose
/// prefix has an 'N' are left out. Reads are inserted in the order of their
/// home slots (a pass over the table instead of a random walk), those with the
/// same home in read order, so the reads of one prefix are probed in read
/// order.
pub fn table(reads: &[u8]) -> (Vec<u64>, u32) {
    let count = reads.len() / (READ_LEN + 1);
    let bits = (2 * count).next_power_of_two().trailing_zeros().max(1);
    let mask = (1usize << bits) - 1;
    let mut keyed: Vec<(usize, usize, u64)> = reads
        .chunks_exact(READ_LEN + 1)
        .enumerate()
        .filter_map(|(i, read)| code(read).map(|key| (home(key, bits), i, key)))
        .collect();
    keyed.sort_unstable();
    let mut table = vec![EMPTY; 2 << bits];
    for (home, i, key) in keyed {
        let mut slot = home;
        while table[2 * slot + 1] != EMPTY {
            slot = (slot + 1) & mask;
        }
        table[2 * slot] = key;
        table[2 * slot + 1] = i as u64;
    }
    (table, bits)
}

/// Read `r`'s successor and overlap, as the kernel finds them.
pub fn successor(reads: &[u8], table: &[u64], bits: u32, r: usize) -> (u32, u32) {
    let mask = (1usize << bits) - 1;
    let at = r * (READ_LEN + 1);
    for s in 1..=READ_LEN - MIN_OVERLAP {
        let Some(key) = code(&reads[at + s..]) else {
            continue;
        };
        let mut slot = home(key, bits);
        while table[2 * slot + 1] != EMPTY {
            let j = table[2 * slot + 1] as usize;
            if table[2 * slot] == key && j != r {
                let at_j = j * (READ_LEN + 1);
                let mut mismatches = 0;
                let mut k = K;
                while k < READ_LEN - s && mismatches <= MAX_MISMATCH {
                    mismatches += u32::from(reads[at + s + k] != reads[at_j + k]);
                    k += 1;
                }
                if mismatches <= MAX_MISMATCH {
                    return (j as u32, (READ_LEN - s) as u32);
                }
            }
            slot = (slot + 1) & mask;
        }
    }
    (NONE, 0)
}

/// (successor, overlap) of every read.
pub fn reference(reads: &[u8], table: &[u64], bits: u32) -> Vec<u32> {
    let mut next = vec![[NONE, 0]; reads.len() / (READ_LEN + 1)];
    par_for_each(&mut next, |r, pair| {
        let (j, overlap) = successor(reads, table, bits, r);
        *pair = [j, overlap];
    });
    next.concat()
}

impl App for Dna {
    fn name(&self) -> &'static str {
        "dna"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let reads = reads((bytes / (READ_LEN + 1)).max(1), seed);
        let (table, bits) = table(&reads);
        let next = reference(&reads, &table, bits);
        Case {
            // Every read's pair is written.
            outputs: vec![Output {
                bytes: 4 * next.len(),
                fill: Fill::Byte(POISON),
            }],
            expected: vec![le(&next)],
            inputs: vec![reads, le(&table)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / (READ_LEN + 1)) as u64;
        // The table has 2 << bits words of 8 bytes.
        let bits = (case.inputs[1].len() / 16).trailing_zeros();
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U32(READ_LEN as u32),
            Arg::U32(MIN_OVERLAP as u32),
            Arg::U32(MAX_MISMATCH),
            Arg::U32(bits),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequence that read `first` and its successors (at most `steps` of
    /// them) merge into.
    fn merge(reads: &[u8], next: &[u32], first: usize, steps: usize) -> Vec<u8> {
        let read = |r: usize| &reads[r * (READ_LEN + 1)..r * (READ_LEN + 1) + READ_LEN];
        let mut seq = read(first).to_vec();
        let mut r = first;
        for _ in 0..steps {
            let (j, overlap) = (next[2 * r], next[2 * r + 1] as usize);
            if j == NONE {
                break;
            }
            seq.extend_from_slice(&read(j as usize)[overlap..]);
            r = j as usize;
        }
        seq
    }

    fn read_of(genome: &[u8], at: usize) -> Vec<u8> {
        let mut read = genome[at..at + READ_LEN].to_vec();
        read.push(b'\n');
        read
    }

    #[test]
    fn codes_pack_two_bits_per_base() {
        let a = [b'A'; K];
        assert_eq!(code(&a), Some(0));
        let mut t = [b'T'; K + 5];
        assert_eq!(code(&t), Some(u64::MAX));
        t[K - 1] = b'G';
        assert_eq!(code(&t), Some(u64::MAX - 1));
        t[0] = b'C';
        assert_eq!(code(&t), Some(u64::MAX - 1 - (2 << 62)));
        t[3] = b'N';
        assert_eq!(code(&t), None);
    }

    #[test]
    fn hand_made_reads_find_their_successors() {
        let mut r = inputs::rng(3);
        let g = genome(400, &mut r);
        // Read 0 at 0, read 1 at 30 (overlap 70), read 2 at 75 (overlap 55
        // with read 1, 25 with read 0: too short), read 3 at 250 (no overlap).
        let mut reads = [0, 30, 75, 250]
            .iter()
            .flat_map(|&at| read_of(&g, at))
            .collect::<Vec<_>>();
        let (table, bits) = table(&reads);
        let next = reference(&reads, &table, bits);
        assert_eq!(next, [1, 70, 2, 55, NONE, 0, NONE, 0]);
        assert_eq!(merge(&reads, &next, 0, 10), &g[..175]);
        // Three errors in the overlap (read 1's first 70 bases, past its
        // 32-base key) still merge, four do not.
        let misread = |reads: &mut Vec<u8>, at: usize| {
            reads[at] = if reads[at] == b'A' { b'C' } else { b'A' };
        };
        for base in [35, 50, 69] {
            misread(&mut reads, READ_LEN + 1 + base);
        }
        let next = reference(&reads, &table, bits);
        assert_eq!(next[..2], [1, 70]);
        misread(&mut reads, READ_LEN + 1 + 60);
        let next = reference(&reads, &table, bits);
        assert_eq!(next[..2], [NONE, 0]);
    }

    #[test]
    fn reads_of_one_prefix_are_tried_in_read_order() {
        let mut r = inputs::rng(5);
        let g = genome(300, &mut r);
        // Reads 1 and 2 are both at 30: the first that agrees with read 0 wins.
        let mut reads: Vec<u8> = [0, 30, 30, 80]
            .iter()
            .flat_map(|&at| read_of(&g, at))
            .collect();
        let (table, bits) = table(&reads);
        assert_eq!(reference(&reads, &table, bits)[..2], [1, 70]);
        for base in [40, 45, 50, 55] {
            let at = READ_LEN + 1 + base;
            reads[at] = if reads[at] == b'G' { b'T' } else { b'G' };
        }
        let next = reference(&reads, &table, bits);
        assert_eq!(next[..2], [2, 70]);
        // Neither is its own successor nor the other's (same start); read 3
        // follows read 2, but read 1's misreads (at 50, 55) hide it there.
        assert_eq!(next[2..6], [NONE, 0, 3, 50]);
    }

    #[test]
    fn error_free_reads_merge_into_genome_sequence() {
        // No repeats: every merge is a piece of the genome.
        let mut r = inputs::rng(9);
        let g: Vec<u8> = (0..20_000).map(|_| BASES[r.random_range(0..4)]).collect();
        let reads = sample(&g, 20_000 * COVERAGE / READ_LEN, false, &mut r);
        let (table, bits) = table(&reads);
        let next = reference(&reads, &table, bits);
        let found = next.chunks(2).filter(|p| p[0] != NONE).count();
        assert!(found * 100 > next.len() / 2 * 99, "{found} successors");
        for first in [0, 7, 100] {
            // A piece of the genome, that goes on for many reads or up to
            // (nearly) the genome's end.
            let seq = merge(&reads, &next, first, 500);
            let at = g.windows(seq.len()).position(|w| w == seq.as_slice());
            let at = at.expect("merged reads are a piece of the genome");
            assert!(seq.len() > 3 * READ_LEN || at + seq.len() + 10 > g.len());
        }
    }

    #[test]
    fn generated_reads_have_errors_and_overlaps() {
        let reads = reads(50_000, 4);
        assert_eq!(reads.len(), 50_000 * (READ_LEN + 1));
        assert_eq!(reads, super::reads(50_000, 4));
        assert!(reads.chunks(READ_LEN + 1).all(|r| r[READ_LEN] == b'\n'));
        let ns = reads.iter().filter(|&&c| c == b'N').count();
        assert!((800..1800).contains(&ns), "{ns} Ns");
        let (table, bits) = table(&reads);
        let next = reference(&reads, &table, bits);
        let found: Vec<_> = next.chunks(2).filter(|p| p[0] != NONE).collect();
        // Most reads have a successor, within the overlap bounds.
        assert!(found.len() * 10 > 50_000 * 8, "{} successors", found.len());
        assert!(found
            .iter()
            .all(|p| (MIN_OVERLAP..READ_LEN).contains(&(p[1] as usize))));
    }

    #[test]
    fn tiny_cases_are_whole_reads() {
        for bytes in [0, 1, 100, 101, 4099] {
            let case = Dna.case(bytes, 1);
            assert_eq!(case.inputs[0].len() % (READ_LEN + 1), 0);
            let n = case.inputs[0].len() / (READ_LEN + 1);
            assert_eq!(case.outputs[0].bytes, 8 * n);
            assert_eq!(case.expected[0].len(), 8 * n);
        }
    }
}
