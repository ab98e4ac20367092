//! Generated kernels stay clear of the ptxas bug of `sl1_fuzz::ptx_hazard`
//! (a narrow store of a register a double operation wrote is converted,
//! not cut): where the plain build hits it, its bytes are wrong and S-L1's
//! right ones read as a mismatch (seeds 400064 and 2007399 on the H100,
//! 2026-11-25). A rotating slice of seeds, plain and default builds.
//! `SL1_HAZARD_FIRST` sets the first seed.

use std::time::{SystemTime, UNIX_EPOCH};

use sl1_driver::build_ir::compile_text;
use sl1_fuzz::modes::{self, Mode};
use sl1_fuzz::ptx_hazard::narrow_store_of_double;

const SEEDS: u64 = 60;

#[test]
fn generated_kernels_never_store_part_of_a_double_register() {
    let first = std::env::var("SL1_HAZARD_FIRST")
        .ok()
        .map(|v| v.parse().expect("SL1_HAZARD_FIRST: a number"))
        .unwrap_or_else(|| {
            let secs = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs();
            3_000_000 + (secs / 600 * SEEDS) % 1_000_000
        });
    eprintln!("no_toolchain_hazard: seeds {first}..{}", first + SEEDS);
    let default = modes::all()
        .into_iter()
        .find(|m| m.name == "default")
        .expect("modes.txt has default");
    let mut hits = Vec::new();
    for seed in first..first + SEEDS {
        let kernel = sl1_kernelgen::generate(seed);
        for mode in [Mode::plain(), default.clone()] {
            let ptx = compile_text(&kernel.ir, &format!("k{seed}"), &mode.args, false)
                .unwrap_or_else(|e| panic!("seed {seed} {}: {e:#}", mode.name))
                .text;
            if let Some((line, text)) = narrow_store_of_double(&ptx) {
                hits.push(format!("seed {seed} {} line {line}: {text}", mode.name));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "(reproduce: SL1_HAZARD_FIRST={first})\n{}",
        hits.join("\n")
    );
}
