//! matmul: naive integer matrix product (3 data structures).

use rand::Rng;

use super::app::{chunk, le, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Matmul;

/// The matrix order for an input budget: two n x n i32 inputs, at most 1024
/// (the product's cost grows as n^3).
pub fn order(bytes: usize) -> usize {
    (((bytes / 8) as f64).sqrt() as usize).clamp(16, 1024)
}

pub fn reference(a: &[i32], b: &[i32], n: usize) -> Vec<i32> {
    let mut c = vec![0i32; n * n];
    for row in 0..n {
        for k in 0..n {
            let x = a[row * n + k];
            for col in 0..n {
                c[row * n + col] = c[row * n + col].wrapping_add(x.wrapping_mul(b[k * n + col]));
            }
        }
    }
    c
}

impl App for Matmul {
    fn name(&self) -> &'static str {
        "matmul"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = order(bytes);
        let mut r = inputs::rng(seed);
        let a: Vec<i32> = (0..n * n).map(|_| r.random_range(-8..=8)).collect();
        let b: Vec<i32> = (0..n * n).map(|_| r.random_range(-8..=8)).collect();
        let c = reference(&a, &b, n);
        Case {
            inputs: vec![le(&a), le(&b)],
            outputs: vec![Output {
                bytes: 4 * n * n,
                fill: Fill::Byte(POISON),
            }],
            expected: vec![le(&c)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = ((case.inputs[0].len() / 4) as f64).sqrt() as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n * n, threads)),
        ]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_multiplies() {
        // [1 2; 3 4] x [5 6; 7 8] = [19 22; 43 50]
        assert_eq!(
            super::reference(&[1, 2, 3, 4], &[5, 6, 7, 8], 2),
            vec![19, 22, 43, 50]
        );
        assert_eq!(super::order(8 * 1024 * 1024), 1024);
        assert_eq!(super::order(8 * 100 * 100), 100);
    }
}
