//! Counts the kernel functions of the modules of a range of seeds:
//! `count_kernels FIRST END` prints modules, kernels and modules by kernel count.
fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("FIRST END: numbers"))
        .collect();
    let (first, end) = (args[0], args[1]);
    let mut by_count = [0u64; 4];
    for seed in first..end {
        let k = sl1_kernelgen::generate(seed);
        by_count[k.spec.kernels.len().min(3)] += 1;
    }
    let kernels: u64 = by_count.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    println!(
        "seeds {first}..{end}: {} modules, {kernels} kernels (1: {}, 2: {}, 3: {})",
        end - first,
        by_count[1],
        by_count[2],
        by_count[3]
    );
}
