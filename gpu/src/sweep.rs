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

/// The grid and block dimensions (x, y) of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    pub grid: (u32, u32),
    pub block: (u32, u32),
}

impl Shape {
    /// A 1-D launch: `blocks` blocks of `threads` threads along x.
    pub fn linear(config: Config) -> Shape {
        Shape {
            grid: (config.blocks, 1),
            block: (config.threads, 1),
        }
    }

    /// A 2-D launch of the same blocks and threads: blocks of 32 x
    /// (threads / 32) (rows of a warp; `threads` along x when it is not a
    /// multiple of 32), on a grid as square as the block count's divisors
    /// allow, wider than tall (132 blocks: 12 x 11).
    pub fn planar(config: Config) -> Shape {
        let block = if config.threads % 32 == 0 {
            (32, config.threads / 32)
        } else {
            (config.threads, 1)
        };
        let b = config.blocks.max(1);
        let rows = (1..=b)
            .take_while(|d| d * d <= b)
            .filter(|d| b % d == 0)
            .last()
            .unwrap_or(1);
        Shape {
            grid: (b / rows, rows),
            block,
        }
    }

    pub fn total_threads(self) -> u64 {
        u64::from(self.grid.0)
            * u64::from(self.grid.1)
            * u64::from(self.block.0)
            * u64::from(self.block.1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps() {
        assert_eq!(configs(false).len(), 20);
        assert_eq!(configs(true).len(), 3);
        assert_eq!(configs(true)[2].total_threads(), 2112 * 256);
    }

    #[test]
    fn shapes_keep_the_configuration_s_threads() {
        let c = Config {
            blocks: 132,
            threads: 256,
        };
        assert_eq!(
            Shape::linear(c),
            Shape {
                grid: (132, 1),
                block: (256, 1)
            }
        );
        assert_eq!(
            Shape::planar(c),
            Shape {
                grid: (12, 11),
                block: (32, 8)
            }
        );
        for c in configs(false) {
            for shape in [Shape::linear(c), Shape::planar(c)] {
                assert_eq!(shape.total_threads(), c.total_threads(), "{c:?}");
            }
            let p = Shape::planar(c);
            assert!(p.grid.0 >= p.grid.1 && p.grid.1 > 1, "{c:?}: {p:?}");
        }
        // Odd sizes: a prime block count is one row, a block of 96 is 32 x 3,
        // one of 100 a single row of threads.
        let odd = Shape::planar(Config {
            blocks: 131,
            threads: 100,
        });
        assert_eq!((odd.grid, odd.block), ((131, 1), (100, 1)));
        let p = Shape::planar(Config {
            blocks: 4,
            threads: 96,
        });
        assert_eq!((p.grid, p.block), ((2, 2), (32, 3)));
    }
}
