//! Issue 22, off the GPU: every mode of `modes.txt` goes through the
//! driver's in-memory build (S-L1, the verifier after it, O3, NVPTX) and
//! ptxas, for a slice of seeds that moves on from run to run, so that a
//! mode that crashes or emits bad code is caught without a GPU.
//!
//! `SL1_FUZZ_FIRST` sets the first seed (default: drawn from the clock and
//! printed), `SL1_FUZZ_MODE_SEEDS` how many (default 8); every seed is built
//! plain and in every mode, as `sl1-fuzz --build-only` does.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{SystemTime, UNIX_EPOCH};

use sl1_fuzz::build::{Builder, Built};
use sl1_fuzz::modes::{self, PLAIN};
use sl1_fuzz::ptxas::Ptxas;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|e| panic!("{name}={v}: not a number: {e}"))
    })
}

#[test]
fn every_mode_builds_and_assembles() {
    let count = env_u64("SL1_FUZZ_MODE_SEEDS").unwrap_or(8);
    // Eight new seeds every ten minutes, within the first million.
    let first = env_u64("SL1_FUZZ_FIRST").unwrap_or_else(|| {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        (secs / 600 * count) % 1_000_000
    });
    let cuda = std::env::var_os("CUDA_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.toolchain/cuda"));
    let ptxas = Ptxas::locate(Some(&cuda.join("bin/ptxas")))
        .expect("ptxas (run ci/setup)")
        .acceptance_only();
    let modes = modes::all();
    eprintln!(
        "every_mode_builds: seeds {first}..{} (SL1_FUZZ_FIRST={first} repeats this run) in plain + {} modes",
        first + count,
        modes.len()
    );
    let builder = Builder::new(modes, ptxas).unwrap();
    let stop = AtomicBool::new(false);
    let mut failures = Vec::new();
    let start = std::time::Instant::now();
    // One seed at a time, its builds on both threads: a seed's 41 builds
    // took 6 to 193 s of one core, and a heavy seed on one thread kept the
    // other idle once the light ones were done.
    for seed in first..first + count {
        let build = builder.build_seed_on(seed, 0, 2, &stop).unwrap();
        let names = std::iter::once(PLAIN).chain(builder.modes.iter().map(|m| m.name.as_str()));
        for (b, name) in std::iter::once(&build.plain).chain(&build.modes).zip(names) {
            if let Built::Failed(message) = &b.built {
                failures.push(format!("seed {seed} mode {name}: {message}"));
            }
        }
    }
    eprintln!("every_mode_builds: {:.1} s", start.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "{} build failure(s) (reproduce: SL1_FUZZ_FIRST={first} or sl1-fuzz --build-only --seeds SEED..SEED+1 --modes MODE):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
