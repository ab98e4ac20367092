//! kmeans: nearest-centroid assignment with the centroids in dynamic shared
//! memory (2 data structures). The paper's S-L1 leaves this kernel alone;
//! here its builds declare the launches' dynamic shared memory
//! (`testdata/apps/kmeans/driver-flags`), and S-L1 caches the points.

use rand::Rng;

use super::app::{chunk, le, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Kmeans;

pub const K: usize = 64;
pub const DIMS: usize = 4;
/// Points at most (the CPU reference costs n x K x DIMS).
pub const MAX_POINTS: usize = 4 << 20;

pub fn reference(points: &[i32], centroids: &[i32]) -> Vec<i32> {
    points
        .chunks(DIMS)
        .map(|p| {
            let mut best = 0;
            let mut best_d = i64::MAX;
            for (j, c) in centroids.chunks(DIMS).enumerate() {
                let d: i64 = p
                    .iter()
                    .zip(c)
                    .map(|(a, b)| (i64::from(*a) - i64::from(*b)).pow(2))
                    .sum();
                if d < best_d {
                    best_d = d;
                    best = j as i32;
                }
            }
            best
        })
        .collect()
}

impl App for Kmeans {
    fn name(&self) -> &'static str {
        "kmeans"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let n = (bytes / (4 * DIMS)).clamp(1, MAX_POINTS);
        let mut r = inputs::rng(seed);
        let centroids: Vec<i32> = (0..K * DIMS).map(|_| r.random_range(-1000..1000)).collect();
        // Points scattered around random centroids.
        let points: Vec<i32> = (0..n)
            .flat_map(|_| {
                let c = r.random_range(0..K);
                (0..DIMS)
                    .map(|x| centroids[c * DIMS + x] + r.random_range(-300..300))
                    .collect::<Vec<_>>()
            })
            .collect();
        let assign = reference(&points, &centroids);
        Case {
            inputs: vec![le(&points), le(&centroids)],
            outputs: vec![Output {
                bytes: 4 * n,
                fill: Fill::Byte(POISON),
            }],
            expected: vec![le(&assign)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / (4 * DIMS)) as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U32(K as u32),
            Arg::U32(DIMS as u32),
        ]
    }
    fn shared_bytes(&self, _case: &Case) -> u32 {
        (4 * K * DIMS) as u32
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nearest_centroid_first_on_ties() {
        let centroids = [0, 0, 0, 0, 10, 10, 10, 10];
        let mut c = centroids.to_vec();
        c.resize(super::K * super::DIMS, 1_000_000);
        assert_eq!(
            super::reference(&[1, 1, 1, 1, 9, 9, 9, 9, 5, 5, 5, 5], &c),
            vec![0, 1, 0]
        );
    }
}
