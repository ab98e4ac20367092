//! affinity, MasterCard affinity: visits per merchant by the customers of a
//! target merchant (3 data structures).

use rand::Rng;

use super::app::{chunk, le, App, Arg, Case, Fill, Output};
use crate::inputs;

pub struct Affinity;

pub const CUSTOMERS: usize = 1 << 20;
pub const MERCHANTS: usize = 4096;
pub const TARGET: u32 = 7;

/// (customer, merchant) records: customers shop at a few favourite merchants.
pub fn transactions(records: usize, seed: u64) -> Vec<u32> {
    let mut r = inputs::rng(seed);
    let mut tx = Vec::with_capacity(2 * records);
    for _ in 0..records {
        let customer = r.random_range(0..CUSTOMERS as u32);
        let merchant = if r.random_range(0..4) == 0 {
            r.random_range(0..MERCHANTS as u32)
        } else {
            // A customer's favourites follow from the customer id.
            (customer.wrapping_mul(2654435761) >> (r.random_range(0..3) * 5)) % MERCHANTS as u32
        };
        tx.extend_from_slice(&[customer, merchant]);
    }
    tx
}

/// Which customers bought from `TARGET`.
pub fn loyal(tx: &[u32]) -> Vec<u8> {
    let mut loyal = vec![0u8; CUSTOMERS];
    for pair in tx.chunks(2) {
        if pair[1] == TARGET {
            loyal[pair[0] as usize] = 1;
        }
    }
    loyal
}

pub fn reference(tx: &[u32], loyal: &[u8]) -> Vec<u64> {
    let mut visits = vec![0u64; MERCHANTS];
    for pair in tx.chunks(2) {
        if loyal[pair[0] as usize] == 1 && (pair[1] as usize) < MERCHANTS {
            visits[pair[1] as usize] += 1;
        }
    }
    visits
}

impl App for Affinity {
    fn name(&self) -> &'static str {
        "affinity"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let tx = transactions((bytes / 8).max(1), seed);
        let loyal = loyal(&tx);
        let visits = reference(&tx, &loyal);
        Case {
            inputs: vec![le(&tx), loyal],
            // Visits are added atomically: they start at zero.
            outputs: vec![Output {
                bytes: 8 * MERCHANTS,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&visits)],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = (case.inputs[0].len() / 8) as u64;
        vec![
            Arg::Input(0),
            Arg::Input(1),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
            Arg::U32(MERCHANTS as u32),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loyal_customers_have_visits_at_the_target() {
        let tx = transactions(200_000, 5);
        let loyal = loyal(&tx);
        assert!(loyal.iter().filter(|&&l| l == 1).count() > 10);
        let visits = reference(&tx, &loyal);
        assert!(visits[TARGET as usize] > 0);
        assert!(visits.iter().sum::<u64>() > visits[TARGET as usize]);
    }
}
