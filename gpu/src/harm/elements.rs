//! Element sizes and layouts: 1, 2, 8 and 16-byte elements, and one
//! computation on an array of structs and on a struct of arrays.

use rand::Rng;

use super::cases::{elements, le, per_thread, poisoned};
use crate::apps::{App, Arg, Case};
use crate::inputs;

/// The arguments of the one-input, one-output kernels here.
fn in_out(case: &Case, element: usize, threads: u64) -> Vec<Arg> {
    let n = (case.inputs[0].len() / element) as u64;
    per_thread(&[Arg::Input(0), Arg::Output(0)], n, threads)
}

/// bytes_u8: `out = in * 3 + 7` on bytes.
pub struct BytesU8;

pub fn bytes_u8(input: &[u8]) -> Vec<u8> {
    input
        .iter()
        .map(|b| b.wrapping_mul(3).wrapping_add(7))
        .collect()
}

impl App for BytesU8 {
    fn name(&self) -> &'static str {
        "bytes_u8"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 2);
        let mut r = inputs::rng(seed);
        let input: Vec<u8> = (0..n).map(|_| r.random()).collect();
        Case {
            outputs: vec![poisoned(n)],
            expected: vec![bytes_u8(&input)],
            inputs: vec![input],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        in_out(case, 1, threads)
    }
}

/// halves_u16: `out = in * 5 + 3` on 16-bit integers.
pub struct HalvesU16;

pub fn halves_u16(input: &[u16]) -> Vec<u16> {
    input
        .iter()
        .map(|h| h.wrapping_mul(5).wrapping_add(3))
        .collect()
}

impl App for HalvesU16 {
    fn name(&self) -> &'static str {
        "halves_u16"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 4);
        let mut r = inputs::rng(seed);
        let input: Vec<u16> = (0..n).map(|_| r.random()).collect();
        Case {
            outputs: vec![poisoned(2 * n)],
            expected: vec![le(&halves_u16(&input))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        in_out(case, 2, threads)
    }
}

/// doubles_f64: `out = a * 2 + b` on doubles that hold small integers.
pub struct DoublesF64;

pub fn doubles_f64(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(&a, &b)| a * 2.0 + b).collect()
}

impl App for DoublesF64 {
    fn name(&self) -> &'static str {
        "doubles_f64"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 24);
        let mut r = inputs::rng(seed);
        let mut small = || -> Vec<f64> {
            (0..n)
                .map(|_| f64::from(r.random_range(-1_000_000..=1_000_000)))
                .collect()
        };
        let a = small();
        let b = small();
        Case {
            outputs: vec![poisoned(8 * n)],
            expected: vec![le(&doubles_f64(&a, &b))],
            inputs: vec![le(&a), le(&b)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 8) as u64;
        per_thread(&[Arg::Input(0), Arg::Input(1), Arg::Output(0)], n, threads)
    }
}

/// u64_lcg: a step of a 64-bit linear congruential generator per element.
pub struct U64Lcg;

pub fn u64_lcg(input: &[u64]) -> Vec<u64> {
    input
        .iter()
        .map(|x| {
            x.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407)
        })
        .collect()
}

impl App for U64Lcg {
    fn name(&self) -> &'static str {
        "u64_lcg"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 16);
        let mut r = inputs::rng(seed);
        let input: Vec<u64> = (0..n).map(|_| r.random()).collect();
        Case {
            outputs: vec![poisoned(8 * n)],
            expected: vec![le(&u64_lcg(&input))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        in_out(case, 8, threads)
    }
}

/// vec16: int4 elements, `(x + y, y - z, 3 z, w ^ x)`.
pub struct Vec16;

pub fn vec16(input: &[i32]) -> Vec<i32> {
    input
        .chunks(4)
        .flat_map(|v| {
            [
                v[0].wrapping_add(v[1]),
                v[1].wrapping_sub(v[2]),
                v[2].wrapping_mul(3),
                v[3] ^ v[0],
            ]
        })
        .collect()
}

impl App for Vec16 {
    fn name(&self) -> &'static str {
        "vec16"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 32);
        let mut r = inputs::rng(seed);
        let input: Vec<i32> = (0..4 * n).map(|_| r.random()).collect();
        Case {
            outputs: vec![poisoned(16 * n)],
            expected: vec![le(&vec16(&input))],
            inputs: vec![le(&input)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        in_out(case, 16, threads)
    }
}

/// Coordinates of the points: small integers, so squares and their sums are
/// exact in floats.
fn coordinates(r: &mut impl Rng, n: usize) -> Vec<f32> {
    (0..n).map(|_| r.random_range(-64..=64) as f32).collect()
}

/// aos: squared lengths of `{x, y, z, w}` structs.
pub struct Aos;

/// The squared length of each 4-float point.
pub fn squared_lengths(points: &[f32]) -> Vec<f32> {
    points
        .chunks(4)
        .map(|p| p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3])
        .collect()
}

impl App for Aos {
    fn name(&self) -> &'static str {
        "aos"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 20);
        let points = coordinates(&mut inputs::rng(seed), 4 * n);
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&squared_lengths(&points))],
            inputs: vec![le(&points)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        in_out(case, 16, threads)
    }
}

/// soa: aos's squared lengths from four arrays.
pub struct Soa;

impl App for Soa {
    fn name(&self) -> &'static str {
        "soa"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = elements(bytes, 20);
        let points = coordinates(&mut inputs::rng(seed), 4 * n);
        // The same points as aos, one array per coordinate.
        let coordinate =
            |c: usize| -> Vec<f32> { points.iter().skip(c).step_by(4).copied().collect() };
        Case {
            outputs: vec![poisoned(4 * n)],
            expected: vec![le(&squared_lengths(&points))],
            inputs: (0..4).map(|c| le(&coordinate(c))).collect(),
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 4) as u64;
        per_thread(
            &[
                Arg::Input(0),
                Arg::Input(1),
                Arg::Input(2),
                Arg::Input(3),
                Arg::Output(0),
            ],
            n,
            threads,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_kernels_by_hand() {
        assert_eq!(bytes_u8(&[0, 1, 100]), [7, 10, 51]);
        assert_eq!(halves_u16(&[0, 13107, 65535]), [3, 2, 65534]);
        assert_eq!(doubles_f64(&[1.0, -4.0], &[0.5, 3.0]), [2.5, -5.0]);
        assert_eq!(u64_lcg(&[0]), [1442695040888963407]);
        assert_eq!(vec16(&[1, 2, 3, 4]), [3, -1, 9, 5]);
        assert_eq!(
            squared_lengths(&[1.0, 2.0, -2.0, 0.0, 64.0, 64.0, 64.0, 64.0]),
            [9.0, 16384.0]
        );
    }

    #[test]
    fn aos_and_soa_hold_the_same_points() {
        let (a, s) = (Aos.case(4099, 3), Soa.case(4099, 3));
        assert_eq!(a.expected, s.expected);
        assert_eq!(s.inputs.len(), 4);
        assert_eq!(&a.inputs[0][4..8], &s.inputs[1][..4], "point 0's y");
    }
}
