//! Counts the kernel functions of the modules of a range of seeds:
//! `count_kernels FIRST END` prints modules, kernels and modules by kernel
//! count, the modules with issue 56's shapes (broadcast reads, twins
//! shifted into their argument) and those with a byte-count loop or a
//! byte map.
fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("FIRST END: numbers"))
        .collect();
    let (first, end) = (args[0], args[1]);
    let mut by_count = [0u64; 4];
    let (mut broadcast, mut broadcast_may_alias, mut shifted, mut alias_shapes) = (0u64, 0, 0, 0);
    let mut alias_shape_kernels = 0u64;
    let (mut byte_counts, mut byte_maps) = (0u64, 0u64);
    for seed in first..end {
        let k = sl1_kernelgen::generate(seed);
        by_count[k.spec.kernels.len().min(3)] += 1;
        let reads_broadcast = k.spec.reads_broadcast();
        broadcast += u64::from(reads_broadcast);
        broadcast_may_alias += u64::from(reads_broadcast && k.spec.args.iter().any(|a| !a.noalias));
        shifted += u64::from(k.spec.has_shifted_twin());
        byte_counts += u64::from(k.spec.has_byte_counts());
        byte_maps += u64::from(k.spec.has_byte_maps());
        if k.spec.has_alias_shapes() {
            alias_shapes += 1;
            alias_shape_kernels += k.spec.kernels.len() as u64;
        }
    }
    let kernels: u64 = by_count.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    println!(
        "seeds {first}..{end}: {} modules, {kernels} kernels (1: {}, 2: {}, 3: {})",
        end - first,
        by_count[1],
        by_count[2],
        by_count[3]
    );
    println!(
        "broadcast reads in {broadcast} modules ({broadcast_may_alias} with arguments without \
         noalias), shifted twins in {shifted}; either shape (`sl1-fuzz --shapes alias`) in \
         {alias_shapes} ({alias_shape_kernels} kernels); byte-count loops (`--shapes counts`) in \
         {byte_counts} modules; byte maps (`--shapes maps`) in {byte_maps} modules"
    );
}
