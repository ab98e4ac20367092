//! Writes the kernels of a seed range as `.ll` files, to read them or feed
//! them to `opt`/`llc`: `cargo run -p sl1-kernelgen --example dump -- DIR FIRST COUNT`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(args.get(1).map(String::as_str).unwrap_or("kernels"));
    let first: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let count: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    std::fs::create_dir_all(&dir).expect("output directory");
    for seed in first..first + count {
        let kernel = sl1_kernelgen::generate(seed);
        std::fs::write(dir.join(format!("k{seed}.ll")), kernel.ir).expect("write");
    }
}
