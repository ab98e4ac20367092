//! Launch configurations and timing statistics (the S-L1 paper's method: every
//! variant at its best configuration).

use serde::{Deserialize, Serialize};

/// A grid of `blocks` blocks of `threads` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub blocks: u32,
    pub threads: u32,
}

impl Config {
    pub fn total_threads(self) -> u64 {
        u64::from(self.blocks) * u64::from(self.threads)
    }
}

/// The sweep: block counts that are multiples of the H100's 132 SMs, block
/// sizes from 128 to 1024. `quick` keeps three configurations.
pub fn configs(quick: bool) -> Vec<Config> {
    let threads: &[u32] = if quick {
        &[256]
    } else {
        &[128, 256, 512, 1024]
    };
    let blocks: &[u32] = if quick {
        &[132, 528, 2112]
    } else {
        &[132, 264, 528, 1056, 2112]
    };
    threads
        .iter()
        .flat_map(|&t| {
            blocks.iter().map(move |&b| Config {
                blocks: b,
                threads: t,
            })
        })
        .collect()
}

/// The median of the samples (the mean of the middle two for an even count).
pub fn median(samples: &[f32]) -> Option<f32> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(f32::total_cmp);
    let mid = s.len() / 2;
    Some(if s.len() % 2 == 1 {
        s[mid]
    } else {
        (s[mid - 1] + s[mid]) / 2.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn sweeps() {
        assert_eq!(configs(false).len(), 20);
        assert_eq!(configs(true).len(), 3);
        assert_eq!(configs(true)[2].total_threads(), 2112 * 256);
    }
}
