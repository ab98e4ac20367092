//! Addresses from data: gather, scatter, a lookup table, a histogram of
//! global atomics, and a CSR sparse matrix-vector product.

use rand::seq::SliceRandom;
use rand::Rng;

use super::cases::{elements, ints, le, per_thread, poisoned};
use crate::apps::{par_for_each, App, Arg, Case, Fill, Output};
use crate::inputs;

/// gather: `out[i] = in[idx[i]]`.
pub struct Gather;

pub fn gather(input: &[i32], idx: &[u32]) -> Vec<i32> {
    idx.iter().map(|&j| input[j as usize]).collect()
}

impl App for Gather {
    fn name(&self) -> &'static str {
        "gather"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 12);
        let mut r = inputs::rng(seed);
        let input = ints(&mut r, n, i32::MIN, i32::MAX);
        let idx: Vec<u32> = (0..n).map(|_| r.random_range(0..n as u32)).collect();
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&gather(&input, &idx))],
            inputs: vec![le(&input), le(&idx)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        per_thread(&[Arg::Input(0), Arg::Input(1), Arg::Output(0)], n, threads)
    }
}

/// scatter: `out[idx[i]] = in[i]`, idx a permutation.
pub struct Scatter;

pub fn scatter(input: &[i32], idx: &[u32]) -> Vec<i32> {
    let mut out = vec![0i32; input.len()];
    for (&v, &j) in input.iter().zip(idx) {
        out[j as usize] = v;
    }
    out
}

impl App for Scatter {
    fn name(&self) -> &'static str {
        "scatter"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 12);
        let mut r = inputs::rng(seed);
        let input = ints(&mut r, n, i32::MIN, i32::MAX);
        let mut idx: Vec<u32> = (0..n as u32).collect();
        idx.shuffle(&mut r);
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&scatter(&input, &idx))],
            inputs: vec![le(&input), le(&idx)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        per_thread(&[Arg::Input(0), Arg::Input(1), Arg::Output(0)], n, threads)
    }
}

/// lut: `out[i] = table[in[i]]`, a 256-entry table.
pub struct Lut;

impl App for Lut {
    fn name(&self) -> &'static str {
        "lut"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 5);
        let mut r = inputs::rng(seed);
        let table: Vec<u32> = (0..256).map(|_| r.random()).collect();
        let input: Vec<u8> = (0..n).map(|_| r.random()).collect();
        let out: Vec<u32> = input.iter().map(|&b| table[usize::from(b)]).collect();
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&out)],
            inputs: vec![input, le(&table)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        per_thread(&[Arg::Input(0), Arg::Input(1), Arg::Output(0)], n, threads)
    }
}

/// histogram: 256 bins of bytes, counted with global atomics.
pub struct Histogram;

/// Bytes counted at most: every byte is an atomic on one of 256 addresses,
/// which bounds the run time, not the memory.
pub const MAX_HISTOGRAM_BYTES: usize = 64 << 20;

pub fn histogram(data: &[u8]) -> Vec<u32> {
    let mut bins = vec![0u32; 256];
    for &b in data {
        bins[usize::from(b)] += 1;
    }
    bins
}

impl App for Histogram {
    fn name(&self) -> &'static str {
        "histogram"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // Text: a few bins take most of the counts, as in real data.
        let data = inputs::text(bytes.clamp(1, MAX_HISTOGRAM_BYTES), seed);
        Case {
            // Bins are accumulated atomically: they start at zero.
            outputs: vec![Output {
                bytes: 4 * 256,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&histogram(&data))],
            inputs: vec![data],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        per_thread(&[Arg::Input(0), Arg::Output(0)], n, threads)
    }
}

/// cas_add: 65,536 bins, each byte's weight (1 to 8, from its index)
/// added with an atomicCAS loop to the bin its value and a hash of its index
/// pick.
pub struct CasAdd;

/// Bins of cas_add.
pub const CAS_BINS: usize = 1 << 16;

pub fn cas_add(data: &[u8]) -> Vec<u32> {
    let mut bins = vec![0u32; CAS_BINS];
    for (i, &b) in data.iter().enumerate() {
        let spread = (i as u32).wrapping_mul(2_654_435_761) >> 16;
        let bin = ((u32::from(b) ^ spread) as usize) & (CAS_BINS - 1);
        bins[bin] = bins[bin].wrapping_add(1 + (i & 7) as u32);
    }
    bins
}

impl App for CasAdd {
    fn name(&self) -> &'static str {
        "cas_add"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // As the histogram: every byte an atomic, which bounds the run time.
        let data = inputs::text(bytes.clamp(1, MAX_HISTOGRAM_BYTES), seed);
        Case {
            outputs: vec![Output {
                bytes: 4 * CAS_BINS,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&cas_add(&data))],
            inputs: vec![data],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        per_thread(&[Arg::Input(0), Arg::Output(0)], n, threads)
    }
}

/// spmv_csr: `y = A x` for a CSR matrix, a row per thread.
pub struct SpmvCsr;

/// A square CSR matrix: row pointers, column indices, values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csr {
    pub row_ptr: Vec<u32>,
    pub cols: Vec<u32>,
    pub vals: Vec<i32>,
}

impl Csr {
    pub fn rows(&self) -> usize {
        self.row_ptr.len() - 1
    }

    /// `rows` rows of varying length: most have 0 to 24 entries, one in ten
    /// 64 to 256; columns sorted within a row, values small.
    pub fn random(r: &mut impl Rng, rows: usize) -> Csr {
        let mut row_ptr = Vec::with_capacity(rows + 1);
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        row_ptr.push(0);
        for _ in 0..rows {
            let len = if r.random_range(0..10) == 0 {
                r.random_range(64..=256)
            } else {
                r.random_range(0..=24)
            };
            let start = cols.len();
            cols.extend((0..len).map(|_| r.random_range(0..rows as u32)));
            cols[start..].sort_unstable();
            vals.extend((0..len).map(|_| r.random_range(-100..=100)));
            row_ptr.push(cols.len() as u32);
        }
        Csr {
            row_ptr,
            cols,
            vals,
        }
    }
}

pub fn spmv(a: &Csr, x: &[i32]) -> Vec<i32> {
    let mut y = vec![0i32; a.rows()];
    par_for_each(&mut y, |row, out| {
        let (begin, end) = (a.row_ptr[row] as usize, a.row_ptr[row + 1] as usize);
        *out = (begin..end).fold(0i32, |acc, j| {
            acc.wrapping_add(a.vals[j].wrapping_mul(x[a.cols[j] as usize]))
        });
    });
    y
}

impl App for SpmvCsr {
    fn name(&self) -> &'static str {
        "spmv_csr"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // About 30 entries a row, 8 bytes each, plus a row pointer, an x and
        // a y element per row.
        let rows = elements(bytes, 30 * 8 + 12);
        let mut r = inputs::rng(seed);
        let a = Csr::random(&mut r, rows);
        let x = ints(&mut r, rows, -100, 100);
        Case {
            outputs: vec![poisoned(4 * rows)],
            expected: vec![le(&spmv(&a, &x))],
            inputs: vec![le(&a.row_ptr), le(&a.cols), le(&a.vals), le(&x)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let rows = (case.inputs[0].len() / 4 - 1) as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Input(2),
            Arg::Input(3),
            Arg::Output(0),
            Arg::U64(rows),
        ]
    }
}

/// spmv_ell: `y = A x` for an ELLPACK matrix, a row per thread.
pub struct SpmvEll;

/// Slots per row of the ELLPACK matrices.
pub const ELL_WIDTH: usize = 16;

/// A square ELLPACK matrix of [`ELL_WIDTH`] slots per row, column-major
/// (slot `k` of row `r` at `k * rows + r`), padded with zero values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ell {
    pub cols: Vec<u32>,
    pub vals: Vec<i32>,
}

impl Ell {
    pub fn rows(&self) -> usize {
        self.cols.len() / ELL_WIDTH
    }

    /// `rows` rows of 0 to [`ELL_WIDTH`] entries; a pad points at its own
    /// row's column with the value 0.
    pub fn random(r: &mut impl Rng, rows: usize) -> Ell {
        let mut cols = vec![0u32; ELL_WIDTH * rows];
        let mut vals = vec![0i32; ELL_WIDTH * rows];
        for row in 0..rows {
            let len = r.random_range(0..=ELL_WIDTH);
            for k in 0..ELL_WIDTH {
                let at = k * rows + row;
                (cols[at], vals[at]) = match k < len {
                    true => (r.random_range(0..rows as u32), r.random_range(-100..=100)),
                    false => (row as u32, 0),
                };
            }
        }
        Ell { cols, vals }
    }
}

pub fn spmv_ell(a: &Ell, x: &[i32]) -> Vec<i32> {
    let rows = a.rows();
    let mut y = vec![0i32; rows];
    par_for_each(&mut y, |row, out| {
        *out = (0..ELL_WIDTH).fold(0i32, |acc, k| {
            let at = k * rows + row;
            acc.wrapping_add(a.vals[at].wrapping_mul(x[a.cols[at] as usize]))
        });
    });
    y
}

impl App for SpmvEll {
    fn name(&self) -> &'static str {
        "spmv_ell"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // ELL_WIDTH slots of 8 bytes, an x and a y element per row.
        let rows = elements(bytes, ELL_WIDTH * 8 + 8);
        let mut r = inputs::rng(seed);
        let a = Ell::random(&mut r, rows);
        let x = ints(&mut r, rows, -100, 100);
        Case {
            outputs: vec![poisoned(4 * rows)],
            expected: vec![le(&spmv_ell(&a, &x))],
            inputs: vec![le(&a.cols), le(&a.vals), le(&x)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let rows = (case.inputs[2].len() / 4) as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Input(2),
            Arg::Output(0),
            Arg::U64(rows),
            Arg::U64(ELL_WIDTH as u64),
        ]
    }
}

/// spmv_coo: `y = A x` for a COO matrix, an entry per thread, added to its
/// row atomically.
pub struct SpmvCoo;

/// The row of each entry of `a`, in order: COO's row indices.
pub fn row_of_entries(a: &Csr) -> Vec<u32> {
    (0..a.rows())
        .flat_map(|row| {
            let len = a.row_ptr[row + 1] - a.row_ptr[row];
            std::iter::repeat_n(row as u32, len as usize)
        })
        .collect()
}

impl App for SpmvCoo {
    fn name(&self) -> &'static str {
        "spmv_coo"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        // About 30 entries a row, 12 bytes each, an x and a y element per row.
        let rows = elements(bytes, 30 * 12 + 8);
        let mut r = inputs::rng(seed);
        let a = Csr::random(&mut r, rows);
        let x = ints(&mut r, rows, -100, 100);
        Case {
            // Entries add to their rows atomically: y starts at zero.
            outputs: vec![Output {
                bytes: 4 * rows,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&spmv(&a, &x))],
            inputs: vec![le(&row_of_entries(&a)), le(&a.cols), le(&a.vals), le(&x)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let entries = (case.inputs[0].len() / 4) as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Input(2),
            Arg::Input(3),
            Arg::Output(0),
            Arg::U64(entries),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_and_scatter_by_hand() {
        assert_eq!(gather(&[10, 20, 30], &[2, 2, 0]), [30, 30, 10]);
        assert_eq!(scatter(&[10, 20, 30], &[2, 0, 1]), [20, 30, 10]);
        let case = Scatter.case(4099, 1);
        let mut idx: Vec<u32> = case.inputs[1]
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        idx.sort_unstable();
        assert!(
            idx.iter().enumerate().all(|(i, &j)| j as usize == i),
            "a permutation"
        );
    }

    #[test]
    fn histogram_by_hand() {
        let bins = histogram(b"abca\xff");
        assert_eq!(
            (bins[usize::from(b'a')], bins[usize::from(b'b')], bins[255]),
            (2, 1, 1)
        );
        assert_eq!(bins.iter().sum::<u32>(), 5);
        // The text's bins: spaces and a few letters dominate.
        let case = Histogram.case(100_000, 1);
        let bins = histogram(&case.inputs[0]);
        assert_eq!(bins.iter().sum::<u32>(), 100_000);
        assert!(bins[usize::from(b' ')] > 10_000, "{bins:?}");
    }

    #[test]
    fn spmv_csr_by_hand() {
        // [1 0 2]   [1]   [ 7]
        // [0 0 0] x [2] = [ 0]
        // [0 -3 4]  [3]   [ 6]
        let a = Csr {
            row_ptr: vec![0, 2, 2, 4],
            cols: vec![0, 2, 1, 2],
            vals: vec![1, 2, -3, 4],
        };
        assert_eq!(spmv(&a, &[1, 2, 3]), [7, 0, 6]);
        assert_eq!(row_of_entries(&a), [0, 0, 2, 2]);
    }

    #[test]
    fn spmv_ell_by_hand_and_its_pads_add_nothing() {
        let rows = 3;
        let mut a = Ell {
            cols: (0..ELL_WIDTH * rows).map(|at| (at % rows) as u32).collect(),
            vals: vec![0; ELL_WIDTH * rows],
        };
        // The matrix of spmv_csr_by_hand: row 0 = (0: 1, 2: 2), row 2 = (1: -3, 2: 4).
        (a.cols[0], a.vals[0]) = (0, 1);
        (a.cols[rows], a.vals[rows]) = (2, 2);
        (a.cols[2], a.vals[2]) = (1, -3);
        (a.cols[rows + 2], a.vals[rows + 2]) = (2, 4);
        assert_eq!(spmv_ell(&a, &[1, 2, 3]), [7, 0, 6]);
        let random = Ell::random(&mut inputs::rng(1), 1000);
        assert_eq!(random.rows(), 1000);
        let pads = (0..random.cols.len())
            .filter(|&at| random.vals[at] == 0 && random.cols[at] as usize == at % 1000)
            .count();
        assert!(pads > 1000 * ELL_WIDTH / 4, "{pads} pads");
    }

    #[test]
    fn csr_rows_vary_in_length_and_are_sorted() {
        let a = Csr::random(&mut inputs::rng(1), 2000);
        let lens: Vec<u32> = a.row_ptr.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(lens.contains(&0) && lens.iter().any(|&l| l >= 64));
        assert_eq!(*a.row_ptr.last().unwrap() as usize, a.cols.len());
        for w in a.row_ptr.windows(2) {
            let row = &a.cols[w[0] as usize..w[1] as usize];
            assert!(row.windows(2).all(|p| p[0] <= p[1]) && row.iter().all(|&c| c < 2000));
        }
    }
}
