//! Dense linear algebra as HPC code writes it: a row (or a column) per
//! thread, one thread per row (`if (i >= rows) return`), sums kept in
//! memory where the pointers may alias. Each shape comes without
//! `__restrict__` (what third-party code mostly has), with it, and some with
//! arguments that overlap on purpose: row-per-thread matrix-vector products
//! with and without a vector every lane reads (`mv_rows`, `dot_rows`), the
//! transposed product with a column per thread (`mv_cols`), rank-1 and
//! rank-2 updates, a per-row stencil and the two sweeps of a tridiagonal
//! solve; the transposed product also with `int` sizes and indices
//! (`mv_cols_int`), the shape of HeCBench `attention`'s column sums, whose
//! float version the driver's code ran at 0.72x of nvcc's with 8 blocks of
//! 256 threads and 0.81x with 65,536 threads (executables, H200,
//! 2026-11-30: `docs/results/2026-11-30-h200-tried-not-kept.txt`). Their
//! sources are `testdata/harm/<name>/<name>.cu`.

use super::cases::{covering, elements, in_place, ints, le, par_rows, poisoned};
use crate::apps::{par_for_each, App, Arg, Case, POISON};
use crate::inputs;
use crate::sweep::Config;

/// Columns of the row-per-thread matrices: a row is 4 KiB.
pub const ROW_COLS: usize = 1024;
/// Rows of the column-per-thread matrix: each thread sums this many values.
pub const COL_ROWS: usize = 256;

/// What a kernel computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowShape {
    /// `y[i] = sum_j a[i][j] x[j]`.
    MvRows,
    /// `y[i] = sum_j a[i][j] b[i][j]`.
    DotRows,
    /// `y[c] = sum_r a[r][c] x[r]`.
    MvCols,
    /// `a[i][j] += x[i] y[j]`.
    Rank1,
    /// `a[i][j] += x[i] y[j] + u[i] v[j]`.
    Rank2,
    /// `out[i][j] = in[i][j-1] + 2 in[i][j] + in[i][j+1]`.
    RowStencil,
    /// `d[i][j] -= l[i][j] d[i][j-1]`, j upwards.
    TriForward,
    /// `d[i][j] -= u[i][j] d[i][j+1]`, j downwards.
    TriBackward,
}

/// How the launch lays the arguments out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Every pointer its own buffer.
    Apart,
    /// Pointers into one buffer: `mv_rows` accumulates into each row's last
    /// element (`y = a + cols - 1`, `ldy = lda`), `rank1` reads `y` from the
    /// matrix's last row (which no thread updates), `tri_forward` reads
    /// `l = d + 1` (rows `cols + 1` apart, so `l[i][j]` is `d[i][j+1]`).
    Overlap,
}

/// A kernel of the family.
pub struct RowKernel {
    pub name: &'static str,
    pub shape: RowShape,
    pub layout: Layout,
    /// Sizes and indices are `int` (32-bit, signed), not `unsigned long long`.
    pub int_sizes: bool,
}

use Layout::{Apart, Overlap};
use RowShape::*;

/// Every kernel of the family, in the suite's order.
pub static ROW_KERNELS: [RowKernel; 20] = [
    kernel("mv_rows", MvRows, Apart),
    kernel("mv_rows_restrict", MvRows, Apart),
    kernel("mv_rows_overlap", MvRows, Overlap),
    kernel("dot_rows", DotRows, Apart),
    kernel("dot_rows_restrict", DotRows, Apart),
    kernel("mv_cols", MvCols, Apart),
    kernel("mv_cols_restrict", MvCols, Apart),
    RowKernel {
        int_sizes: true,
        ..kernel("mv_cols_int", MvCols, Apart)
    },
    kernel("rank1", Rank1, Apart),
    kernel("rank1_restrict", Rank1, Apart),
    kernel("rank1_overlap", Rank1, Overlap),
    kernel("rank2", Rank2, Apart),
    kernel("rank2_restrict", Rank2, Apart),
    kernel("row_stencil", RowStencil, Apart),
    kernel("row_stencil_restrict", RowStencil, Apart),
    kernel("tri_forward", TriForward, Apart),
    kernel("tri_forward_restrict", TriForward, Apart),
    kernel("tri_forward_overlap", TriForward, Overlap),
    kernel("tri_backward", TriBackward, Apart),
    kernel("tri_backward_restrict", TriBackward, Apart),
];

const fn kernel(name: &'static str, shape: RowShape, layout: Layout) -> RowKernel {
    RowKernel {
        name,
        shape,
        layout,
        int_sizes: false,
    }
}

fn wmul(a: i32, b: i32) -> i32 {
    a.wrapping_mul(b)
}

/// `y[i] = sum_j a[i * ld + j] x[j]` over `rows` rows of `cols`.
pub fn mv_rows(a: &[i32], x: &[i32], rows: usize, ld: usize) -> Vec<i32> {
    let mut y = vec![0i32; rows];
    par_for_each(&mut y, |i, out| {
        *out = a[i * ld..i * ld + x.len()]
            .iter()
            .zip(x)
            .fold(0i32, |s, (&a, &x)| s.wrapping_add(wmul(a, x)));
    });
    y
}

/// `mv_rows` with each row's last element as its accumulator: set to 0
/// first, then read as `a[i][cols - 1]` in the last step.
pub fn mv_rows_in_last(a: &[i32], x: &[i32]) -> Vec<i32> {
    let cols = x.len();
    let mut out = a.to_vec();
    par_rows(&mut out, cols, |_, row| {
        row[cols - 1] = 0;
        for j in 0..cols {
            let s = row[cols - 1].wrapping_add(wmul(row[j], x[j]));
            row[cols - 1] = s;
        }
    });
    out
}

/// `y[c] = sum_r a[r][c] x[r]`.
pub fn mv_cols(a: &[i32], x: &[i32], cols: usize) -> Vec<i32> {
    let mut y = vec![0i32; cols];
    par_for_each(&mut y, |c, out| {
        *out = x
            .iter()
            .enumerate()
            .fold(0i32, |s, (r, &x)| s.wrapping_add(wmul(a[r * cols + c], x)));
    });
    y
}

/// `a[i][j] += sum over (p, q) of p[i] q[j]`, for the first `rows` rows.
pub fn rank_update(a: &[i32], ld: usize, rows: usize, pairs: &[(&[i32], &[i32])]) -> Vec<i32> {
    let mut out = a.to_vec();
    let cols = pairs[0].1.len();
    par_rows(&mut out[..rows * ld], ld, |i, row| {
        for (j, v) in row[..cols].iter_mut().enumerate() {
            let add = pairs
                .iter()
                .fold(0i32, |s, (p, q)| s.wrapping_add(wmul(p[i], q[j])));
            *v = v.wrapping_add(add);
        }
    });
    out
}

/// The row stencil's output: the inner columns computed, the first and
/// last of each row as poisoned.
pub fn row_stencil(input: &[i32], cols: usize) -> Vec<i32> {
    let poison = i32::from_le_bytes([POISON; 4]);
    let mut out = vec![poison; input.len()];
    par_rows(&mut out, cols, |i, row| {
        let r = &input[i * cols..(i + 1) * cols];
        for j in 1..cols.saturating_sub(1) {
            row[j] = r[j - 1].wrapping_add(wmul(2, r[j])).wrapping_add(r[j + 1]);
        }
    });
    out
}

/// The forward sweep over rows `ld` apart, `cols` long, with `l` read at
/// `l_at(row, i * ld + j)`; `l` may be the row itself shifted by one.
pub fn tri_forward(d: &[i32], l: Option<&[i32]>, cols: usize, ld: usize) -> Vec<i32> {
    let mut out = d.to_vec();
    par_rows(&mut out, ld, |i, row| {
        for j in 1..cols {
            let lj = match l {
                Some(l) => l[i * ld + j],
                None => row[j + 1],
            };
            row[j] = row[j].wrapping_sub(wmul(lj, row[j - 1]));
        }
    });
    out
}

/// The backward sweep: `d[i][j] -= u[i][j] d[i][j+1]` for `j` from
/// `cols - 2` down to 0.
pub fn tri_backward(d: &[i32], u: &[i32], cols: usize) -> Vec<i32> {
    let mut out = d.to_vec();
    par_rows(&mut out, cols, |i, row| {
        for j in (0..cols - 1).rev() {
            row[j] = row[j].wrapping_sub(wmul(u[i * cols + j], row[j + 1]));
        }
    });
    out
}

impl RowKernel {
    /// Matrices of the row-per-thread case: rows of [`ROW_COLS`] ints, the
    /// budget shared by `matrices` of them.
    fn rows(bytes: usize, matrices: usize) -> usize {
        elements(bytes, 4 * ROW_COLS * matrices).max(2)
    }

    /// Threads the kernel needs (a row or a column each), from its case.
    fn threads(&self, case: &Case) -> u64 {
        let ints = |i: usize| (case.inputs[i].len() / 4) as u64;
        let c = ROW_COLS as u64;
        match (self.shape, self.layout) {
            (MvCols, _) => ints(0) / COL_ROWS as u64,
            (TriForward, Overlap) => ints(0) / (c + 1),
            (Rank1, Overlap) => ints(0) / c - 1,
            _ => ints(0) / c,
        }
    }
}

impl App for RowKernel {
    fn name(&self) -> &'static str {
        self.name
    }

    fn case(&self, bytes: usize, seed: u64) -> Case {
        let mut r = inputs::rng(seed);
        let mut ints = |n: usize| ints(&mut r, n, -100, 100);
        let c = ROW_COLS;
        let (inputs, outputs, expected) = match (self.shape, self.layout) {
            (MvRows, Apart) => {
                let rows = Self::rows(bytes, 1);
                let (a, x) = (ints(rows * c), ints(c));
                let y = mv_rows(&a, &x, rows, c);
                (vec![le(&a), le(&x)], vec![poisoned(4 * rows)], vec![le(&y)])
            }
            (MvRows, Overlap) => {
                let rows = Self::rows(bytes, 2);
                let (a, x) = (ints(rows * c), ints(c));
                let out = mv_rows_in_last(&a, &x);
                (
                    vec![le(&a), le(&x)],
                    vec![in_place(4 * rows * c, 0)],
                    vec![le(&out)],
                )
            }
            (DotRows, _) => {
                let rows = Self::rows(bytes, 2);
                let (a, b) = (ints(rows * c), ints(rows * c));
                let y: Vec<i32> = (0..rows)
                    .map(|i| {
                        (0..c).fold(0i32, |s, j| {
                            s.wrapping_add(wmul(a[i * c + j], b[i * c + j]))
                        })
                    })
                    .collect();
                (vec![le(&a), le(&b)], vec![poisoned(4 * rows)], vec![le(&y)])
            }
            (MvCols, _) => {
                let cols = elements(bytes, 4 * COL_ROWS).max(2);
                let (a, x) = (ints(COL_ROWS * cols), ints(COL_ROWS));
                let y = mv_cols(&a, &x, cols);
                (vec![le(&a), le(&x)], vec![poisoned(4 * cols)], vec![le(&y)])
            }
            (Rank1, layout) => {
                let rows = Self::rows(bytes, 2);
                // Overlap: one more row, y's, which no thread updates.
                let stored = rows + usize::from(layout == Overlap);
                let (a, x) = (ints(stored * c), ints(rows));
                let y = match layout {
                    Apart => ints(c),
                    Overlap => a[rows * c..].to_vec(),
                };
                let out = rank_update(&a, c, rows, &[(&x, &y)]);
                let mut inputs = vec![le(&a), le(&x)];
                if layout == Apart {
                    inputs.push(le(&y));
                }
                (inputs, vec![in_place(4 * stored * c, 0)], vec![le(&out)])
            }
            (Rank2, _) => {
                let rows = Self::rows(bytes, 2);
                let (a, x, y, u, v) = (ints(rows * c), ints(rows), ints(c), ints(rows), ints(c));
                let out = rank_update(&a, c, rows, &[(&x, &y), (&u, &v)]);
                let inputs = vec![le(&a), le(&x), le(&y), le(&u), le(&v)];
                (inputs, vec![in_place(4 * rows * c, 0)], vec![le(&out)])
            }
            (RowStencil, _) => {
                let rows = Self::rows(bytes, 2);
                let input = ints(rows * c);
                let out = row_stencil(&input, c);
                (
                    vec![le(&input)],
                    vec![poisoned(4 * rows * c)],
                    vec![le(&out)],
                )
            }
            (TriForward, Apart) => {
                let rows = Self::rows(bytes, 2);
                let (d, l) = (ints(rows * c), ints(rows * c));
                let out = tri_forward(&d, Some(&l), c, c);
                (
                    vec![le(&d), le(&l)],
                    vec![in_place(4 * rows * c, 0)],
                    vec![le(&out)],
                )
            }
            (TriForward, Overlap) => {
                let rows = Self::rows(bytes, 2);
                let d = ints(rows * (c + 1));
                let out = tri_forward(&d, None, c, c + 1);
                (vec![le(&d)], vec![in_place(4 * d.len(), 0)], vec![le(&out)])
            }
            (TriBackward, _) => {
                let rows = Self::rows(bytes, 2);
                let (d, u) = (ints(rows * c), ints(rows * c));
                let out = tri_backward(&d, &u, c);
                (
                    vec![le(&d), le(&u)],
                    vec![in_place(4 * rows * c, 0)],
                    vec![le(&out)],
                )
            }
        };
        Case {
            inputs,
            outputs,
            expected,
        }
    }

    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let n = self.threads(case);
        let c = ROW_COLS as u64;
        let (mut args, dims): (Vec<Arg>, [u64; 3]) = match (self.shape, self.layout) {
            (MvRows, Apart) => (
                vec![Arg::Input(0), Arg::Input(1), Arg::Output(0)],
                [n, c, c],
            ),
            (MvRows, Overlap) => (
                vec![Arg::Output(0), Arg::Input(1), Arg::OutputAt(0, 4 * (c - 1))],
                [n, c, c],
            ),
            (DotRows, _) => (
                vec![Arg::Input(0), Arg::Input(1), Arg::Output(0)],
                [n, c, c],
            ),
            (MvCols, _) => (
                vec![Arg::Input(0), Arg::Input(1), Arg::Output(0)],
                [COL_ROWS as u64, n, n],
            ),
            (Rank1, Apart) => (
                vec![Arg::Output(0), Arg::Input(1), Arg::Input(2)],
                [n, c, c],
            ),
            (Rank1, Overlap) => (
                vec![Arg::Output(0), Arg::Input(1), Arg::OutputAt(0, 4 * n * c)],
                [n, c, c],
            ),
            (Rank2, _) => (
                vec![
                    Arg::Output(0),
                    Arg::Input(1),
                    Arg::Input(2),
                    Arg::Input(3),
                    Arg::Input(4),
                ],
                [n, c, c],
            ),
            (RowStencil, _) => (vec![Arg::Input(0), Arg::Output(0)], [n, c, c]),
            (TriForward, Apart) => (vec![Arg::Output(0), Arg::Input(1)], [n, c, c]),
            (TriForward, Overlap) => (vec![Arg::Output(0), Arg::OutputAt(0, 4)], [n, c, c + 1]),
            (TriBackward, _) => (vec![Arg::Output(0), Arg::Input(1)], [n, c, c]),
        };
        if self.int_sizes {
            args.extend(dims.map(|d| Arg::U32(i32::try_from(d).expect("an int size") as u32)));
        } else {
            args.extend(dims.map(Arg::U64));
        }
        // mv_rows's ldy: 1 apart, a row in the overlap.
        if self.shape == MvRows {
            args.push(Arg::U64(if self.layout == Overlap { c } else { 1 }));
        }
        args
    }

    /// A thread per row (or column): each block size of the sweep, with the
    /// blocks that cover them.
    fn configs(&self, case: &Case, sweep: &[Config]) -> Vec<Config> {
        covering(self.threads(case), sweep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_on_small_matrices() {
        // 2 x 2: rows [1 2], [3 4].
        let a = [1, 2, 3, 4];
        assert_eq!(mv_rows(&a, &[1, -1], 2, 2), [-1, -1]);
        // The last element accumulates: 0 + 1*1, then + acc*(-1) = 0.
        assert_eq!(mv_rows_in_last(&a, &[1, -1]), [1, 0, 3, 0]);
        assert_eq!(mv_cols(&a, &[1, 10], 2), [31, 42]);
        assert_eq!(rank_update(&a, 2, 1, &[(&[2], &[1, 1])]), [3, 4, 3, 4]);
        assert_eq!(tri_forward(&[1, 2, 3], Some(&[0, 1, 1]), 3, 3), [1, 1, 2]);
        // l[j] = d[j + 1] with a padding element: d1 -= d2 * d0.
        assert_eq!(tri_forward(&[2, 3, 5, 7], None, 3, 4), [2, -7, 54, 7]);
        assert_eq!(tri_backward(&[1, 2, 3], &[1, 1, 0], 3), [2, -1, 3]);
        let poison = i32::from_le_bytes([POISON; 4]);
        assert_eq!(row_stencil(&[1, 2, 3], 3), [poison, 8, poison]);
    }

    #[test]
    fn restrict_and_overlap_follow_their_names() {
        for k in &ROW_KERNELS {
            assert_eq!(
                k.name.ends_with("_overlap"),
                k.layout == Overlap,
                "{}",
                k.name
            );
            let base = k
                .name
                .trim_end_matches("_restrict")
                .trim_end_matches("_overlap");
            let plain = ROW_KERNELS.iter().find(|p| p.name == base).unwrap();
            assert_eq!(plain.shape, k.shape, "{}", k.name);
        }
    }
}
