//! `sl1-fuzz`: differential runs of generated kernels on the GPU. For each
//! seed whose kernel the bundle holds in both builds (`fuzz/plain/k<seed>.ptx`,
//! `fuzz/sl1/k<seed>.ptx`, made by `ci/gpu-bundle`), runs both on the same
//! random inputs (`sl1_gpu::fuzz::case`) and compares every buffer byte for
//! byte. The plain build runs twice: a kernel whose result depends on the
//! threads' order is reported as nondeterministic (a generator bug) rather
//! than as a mismatch. Either is written to `--out` as JSON (seed, launch,
//! the differing bytes, the kernel's spec); the seed replays it. Exit 1 on
//! any mismatch, nondeterminism or error.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use sl1_gpu::device::Gpu;
use sl1_fuzz::case::{case, differences, first_difference};

#[derive(Parser)]
#[command(name = "sl1-fuzz", version)]
struct Cli {
    /// The bundle directory (with fuzz/plain and fuzz/sl1).
    #[arg(long, default_value = ".")]
    bundle: PathBuf,
    /// Where mismatches are written.
    #[arg(long, default_value = "fuzz-mismatches")]
    out: PathBuf,
}

fn seeds(dir: &std::path::Path) -> Result<Vec<u64>> {
    let mut seeds: Vec<u64> = std::fs::read_dir(dir.join("fuzz/sl1"))
        .with_context(|| format!("cannot read {}/fuzz/sl1", dir.display()))?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix('k')?.strip_suffix(".ptx")?.parse().ok()
        })
        .filter(|s| dir.join(format!("fuzz/plain/k{s}.ptx")).is_file())
        .collect();
    seeds.sort_unstable();
    Ok(seeds)
}

fn run(cli: &Cli) -> Result<usize> {
    let gpu = Gpu::open()?;
    let seeds = seeds(&cli.bundle)?;
    anyhow::ensure!(
        !seeds.is_empty(),
        "no generated kernels in {}",
        cli.bundle.display()
    );
    let mut mismatches = 0;
    for &seed in &seeds {
        let spec = sl1_kernelgen::generate(seed).spec;
        let c = case(&spec, seed);
        let name = format!("k{seed}");
        let outputs = |build: &str| -> Result<Vec<Vec<u8>>> {
            let path = cli.bundle.join(format!("fuzz/{build}/{name}.ptx"));
            let kernel = gpu.load(&path, &name)?;
            Ok(gpu.run_once(
                &kernel.func,
                &c.buffers,
                &c.buffer_of_arg,
                &[c.n, c.chunk],
                (c.blocks, c.threads),
            )?)
        };
        let plain = outputs("plain").with_context(|| format!("seed {seed}, plain build"))?;
        // The plain build twice: a kernel whose result hangs on the threads'
        // order would be a generator bug, not an S-L1 one.
        let again = outputs("plain").with_context(|| format!("seed {seed}, plain build"))?;
        let sl1 = outputs("sl1").with_context(|| format!("seed {seed}, S-L1 build"))?;
        let (what, other, diff) = match first_difference(&plain, &again) {
            Some(d) => ("nondeterministic", &again, d),
            None => match first_difference(&plain, &sl1) {
                Some(d) => ("mismatch", &sl1, d),
                None => continue,
            },
        };
        let (buffer, offset) = diff;
        mismatches += 1;
        std::fs::create_dir_all(&cli.out)?;
        // Every differing byte (the first 256 listed): whether one store
        // went wrong or whole lines did.
        let (listed, count) = differences(&plain, other, 256);
        let record = serde_json::json!({
            "what": what, "seed": seed, "case": c, "buffer": buffer, "offset": offset,
            "plain": plain[buffer].get(offset), "other": other[buffer].get(offset),
            "differing_bytes": count,
            "differences": listed,
            "spec": spec,
        });
        let path = cli.out.join(format!("{what}-{name}.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&record)? + "\n")?;
        println!(
            "sl1-fuzz: {} seed {seed}: buffer {buffer} byte {offset}, {count} byte(s) in all ({})",
            what.to_uppercase(),
            path.display()
        );
    }
    println!(
        "sl1-fuzz: {} kernels, {mismatches} mismatch(es) or nondeterministic kernel(s) on {}",
        seeds.len(),
        gpu.name()
    );
    Ok(mismatches)
}

fn main() -> ExitCode {
    match run(&Cli::parse()) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("sl1-fuzz: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
