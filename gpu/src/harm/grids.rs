//! Neighbours and rows: a 1-D and a 2-D stencil, a naive transpose (2-D
//! launches), a matrix-vector product with a row per thread and column sums
//! with a column per thread.

use super::cases::{elements, ints, le, par_rows, per_thread, poisoned};
use crate::apps::{par_for_each, App, Arg, Case};
use crate::inputs;
use crate::sweep::{Config, Shape};

/// stencil3: `out[i] = in[i-1] + 2 in[i] + in[i+1]`.
pub struct Stencil3;

pub fn stencil3(input: &[i32]) -> Vec<i32> {
    let at = |i: usize| input.get(i).copied().unwrap_or(0);
    (0..input.len())
        .map(|i| {
            let left = if i > 0 { input[i - 1] } else { 0 };
            left.wrapping_add(input[i].wrapping_mul(2))
                .wrapping_add(at(i + 1))
        })
        .collect()
}

impl App for Stencil3 {
    fn name(&self) -> &'static str {
        "stencil3"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 8);
        let input = ints(&mut inputs::rng(seed), n, -(1 << 20), 1 << 20);
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&stencil3(&input))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        per_thread(&[Arg::Input(0), Arg::Output(0)], n, threads)
    }
}

/// The widest grid row of the 2-D kernels (16 KiB of ints).
pub const MAX_WIDTH: usize = 4096;

/// Width and height of a 2-D grid of about `cells` cells: as square as it
/// gets up to [`MAX_WIDTH`] columns. `dims(w * h)` gives `(w, h)` back, so
/// the grid's dimensions follow from its buffer's size.
pub fn dims(cells: usize) -> (usize, usize) {
    let w = cells.isqrt().clamp(1, MAX_WIDTH);
    (w, (cells / w).max(1))
}

/// stencil2d: the 5-point Laplacian of a 2-D grid.
pub struct Stencil2d;

pub fn stencil2d(input: &[i32], w: usize, h: usize) -> Vec<i32> {
    let mut out = vec![0i32; w * h];
    par_rows(&mut out, w, |y, row| {
        for (x, o) in row.iter_mut().enumerate() {
            let c = y * w + x;
            let up = if y > 0 { input[c - w] } else { 0 };
            let down = if y + 1 < h { input[c + w] } else { 0 };
            let left = if x > 0 { input[c - 1] } else { 0 };
            let right = if x + 1 < w { input[c + 1] } else { 0 };
            *o = input[c]
                .wrapping_mul(4)
                .wrapping_sub(up)
                .wrapping_sub(down)
                .wrapping_sub(left)
                .wrapping_sub(right);
        }
    });
    out
}

impl App for Stencil2d {
    fn name(&self) -> &'static str {
        "stencil2d"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let (w, h) = dims(elements(bytes, 8));
        let input = ints(&mut inputs::rng(seed), w * h, -(1 << 20), 1 << 20);
        Case {
            outputs: vec![poisoned(4 * w * h)],
            expected: vec![le(&stencil2d(&input, w, h))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        planar_args(case)
    }
    fn shape(&self, config: Config) -> Shape {
        Shape::planar(config)
    }
}

/// `in, out, w, h` for the kernels over a `w x h` grid of ints.
fn planar_args(case: &Case) -> Vec<Arg> {
    let (w, h) = dims(case.inputs[0].len() / 4);
    vec![
        Arg::Input(0),
        Arg::Output(0),
        Arg::U64(w as u64),
        Arg::U64(h as u64),
    ]
}

/// stencil2d_tiled: stencil2d's Laplacian through a shared-memory tile with
/// halos (the same case and reference).
pub struct Stencil2dTiled;

impl App for Stencil2dTiled {
    fn name(&self) -> &'static str {
        "stencil2d_tiled"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        Stencil2d.case(bytes, seed)
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        planar_args(case)
    }
    fn shape(&self, config: Config) -> Shape {
        Shape::planar(config)
    }
}

/// stencil3d: the 7-point Laplacian of a `w x h x d` grid.
pub struct Stencil3d;

/// Planes of the 3-D grid: each thread marches this many cells in z.
pub const STENCIL3D_DEPTH: usize = 16;

/// Width, height and depth of a 3-D grid of about `cells` cells:
/// [`STENCIL3D_DEPTH`] planes (fewer when there are fewer cells) of
/// [`dims`]; `dims3(w * h * d)` gives `(w, h, d)` back.
pub fn dims3(cells: usize) -> (usize, usize, usize) {
    let d = STENCIL3D_DEPTH.min(cells.max(1));
    let (w, h) = dims(cells.max(1) / d);
    (w, h, d)
}

pub fn stencil3d(input: &[i32], w: usize, h: usize, d: usize) -> Vec<i32> {
    let plane = w * h;
    let mut out = vec![0i32; plane * d];
    par_rows(&mut out, w, |row, cells| {
        let (z, y) = (row / h, row % h);
        for (x, o) in cells.iter_mut().enumerate() {
            let c = row * w + x;
            let mut v = input[c].wrapping_mul(6);
            let neighbours = [
                (x > 0, c.wrapping_sub(1)),
                (x + 1 < w, c + 1),
                (y > 0, c.wrapping_sub(w)),
                (y + 1 < h, c + w),
                (z > 0, c.wrapping_sub(plane)),
                (z + 1 < d, c + plane),
            ];
            for (inside, at) in neighbours {
                if inside {
                    v = v.wrapping_sub(input[at]);
                }
            }
            *o = v;
        }
    });
    out
}

impl App for Stencil3d {
    fn name(&self) -> &'static str {
        "stencil3d"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let (w, h, d) = dims3(elements(bytes, 8));
        let input = ints(&mut inputs::rng(seed), w * h * d, -(1 << 20), 1 << 20);
        Case {
            outputs: vec![poisoned(4 * w * h * d)],
            expected: vec![le(&stencil3d(&input, w, h, d))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let (w, h, d) = dims3(case.inputs[0].len() / 4);
        vec![
            Arg::Input(0),
            Arg::Output(0),
            Arg::U64(w as u64),
            Arg::U64(h as u64),
            Arg::U64(d as u64),
        ]
    }
    fn shape(&self, config: Config) -> Shape {
        Shape::planar(config)
    }
}

/// transpose: `out (w x h) = in (h x w)` transposed.
pub struct Transpose;

pub fn transpose(input: &[i32], w: usize, h: usize) -> Vec<i32> {
    let mut out = vec![0i32; w * h];
    par_rows(&mut out, h, |x, row| {
        for (y, o) in row.iter_mut().enumerate() {
            *o = input[y * w + x];
        }
    });
    out
}

impl App for Transpose {
    fn name(&self) -> &'static str {
        "transpose"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let (w, h) = dims(elements(bytes, 8));
        let input = ints(&mut inputs::rng(seed), w * h, i32::MIN, i32::MAX);
        Case {
            outputs: vec![poisoned(4 * w * h)],
            expected: vec![le(&transpose(&input, w, h))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        planar_args(case)
    }
    fn shape(&self, config: Config) -> Shape {
        Shape::planar(config)
    }
}

/// matvec: dense `y = A x`, a row per thread.
pub struct Matvec;

/// Columns of the matrix.
pub const MATVEC_COLS: usize = 1024;
/// The matrix at most: 256 MiB.
pub const MAX_MATVEC_BYTES: usize = 256 << 20;

pub fn matvec(a: &[i32], x: &[i32]) -> Vec<i32> {
    let mut y = vec![0i32; a.len() / x.len()];
    par_for_each(&mut y, |row, out| {
        *out = a[row * x.len()..(row + 1) * x.len()]
            .iter()
            .zip(x)
            .fold(0i32, |acc, (&a, &x)| acc.wrapping_add(a.wrapping_mul(x)));
    });
    y
}

impl App for Matvec {
    fn name(&self) -> &'static str {
        "matvec"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let rows = elements(bytes.min(MAX_MATVEC_BYTES), 4 * MATVEC_COLS);
        let mut r = inputs::rng(seed);
        let a = ints(&mut r, rows * MATVEC_COLS, -100, 100);
        let x = ints(&mut r, MATVEC_COLS, -100, 100);
        Case {
            outputs: vec![poisoned(4 * rows)],
            expected: vec![le(&matvec(&a, &x))],
            inputs: vec![le(&a), le(&x)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let rows = case.inputs[0].len() / (4 * MATVEC_COLS);
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(rows as u64),
            Arg::U64(MATVEC_COLS as u64),
        ]
    }
}

/// col_sums: the column sums of a matrix, a column per thread.
pub struct ColSums;

/// Rows of the matrix: each thread sums this many values.
pub const COL_SUMS_ROWS: usize = 256;

pub fn col_sums(a: &[i32], cols: usize) -> Vec<i32> {
    let mut sums = vec![0i32; cols];
    for row in a.chunks(cols) {
        for (s, &v) in sums.iter_mut().zip(row) {
            *s = s.wrapping_add(v);
        }
    }
    sums
}

impl App for ColSums {
    fn name(&self) -> &'static str {
        "col_sums"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let cols = elements(bytes, 4 * COL_SUMS_ROWS);
        let a = ints(
            &mut inputs::rng(seed),
            COL_SUMS_ROWS * cols,
            i32::MIN,
            i32::MAX,
        );
        Case {
            outputs: vec![poisoned(4 * cols)],
            expected: vec![le(&col_sums(&a, cols))],
            inputs: vec![le(&a)],
        }
    }
    fn args(&self, case: &Case, _threads: u64) -> Vec<Arg> {
        let cols = case.inputs[0].len() / (4 * COL_SUMS_ROWS);
        vec![
            Arg::Input(0),
            Arg::Output(0),
            Arg::U64(COL_SUMS_ROWS as u64),
            Arg::U64(cols as u64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencils_by_hand() {
        assert_eq!(stencil3(&[1, 2, 3]), [4, 8, 8]);
        assert_eq!(stencil3(&[7]), [14]);
        // 3 x 2 grid:  1 2 3
        //              4 5 6
        // (0,0): 4 - 4 - 2 = -2; (1,0): 8 - 5 - 1 - 3 = -1; (2,0): 12 - 6 - 2 = 4
        // (0,1): 16 - 1 - 5 = 10; (1,1): 20 - 2 - 4 - 6 = 8; (2,1): 24 - 3 - 5 = 16
        assert_eq!(stencil2d(&[1, 2, 3, 4, 5, 6], 3, 2), [-2, -1, 4, 10, 8, 16]);
        assert_eq!(transpose(&[1, 2, 3, 4, 5, 6], 3, 2), [1, 4, 2, 5, 3, 6]);
        // 2 x 1 x 2 grid: planes [1 2] and [3 4].
        // (0,0,0): 6 - 2 - 3 = 1; (1,0,0): 12 - 1 - 4 = 7
        // (0,0,1): 18 - 4 - 1 = 13; (1,0,1): 24 - 3 - 2 = 19
        assert_eq!(stencil3d(&[1, 2, 3, 4], 2, 1, 2), [1, 7, 13, 19]);
    }

    #[test]
    fn grid_depth_and_planes_follow_from_the_cell_count() {
        for cells in [1, 5, 15, 16, 17, 4099, 100_000, 64 << 20] {
            let (w, h, d) = dims3(cells);
            assert!(w * h * d <= cells && d <= STENCIL3D_DEPTH, "{cells}");
            assert_eq!(dims3(w * h * d), (w, h, d), "{cells}");
        }
    }

    #[test]
    fn grid_dimensions_follow_from_the_cell_count() {
        for cells in [
            1,
            2,
            3,
            511,
            512,
            4099,
            100_000,
            MAX_WIDTH * MAX_WIDTH * 5 + 17,
        ] {
            let (w, h) = dims(cells);
            assert!(w * h <= cells.max(1) && w <= MAX_WIDTH, "{cells}");
            assert_eq!(dims(w * h), (w, h), "{cells}");
        }
        assert_eq!(dims(64 << 20), (4096, 16384));
    }

    #[test]
    fn rows_and_columns_by_hand() {
        // [1 2; 3 4] x [1, -1] = [-1, -1]
        assert_eq!(matvec(&[1, 2, 3, 4], &[1, -1]), [-1, -1]);
        assert_eq!(col_sums(&[1, 2, 3, 4, 5, 6], 3), [5, 7, 9]);
    }
}
