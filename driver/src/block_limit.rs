//! Every kernel keeps the largest block its build without S-L1 launches.
//!
//! A kernel without `__launch_bounds__` launches with as many threads as its
//! registers allow: 1024 at 64 registers or fewer on every GPU since sm_50
//! (the register file a block may use is 64 K), fewer above. S-L1's
//! transform, its device rewrites and the device tuning's LLVM options can
//! raise a kernel's registers past such a limit, and a program launching
//! 1024-thread blocks then fails with "too many resources requested", which
//! many programs never check (HeCBench `topk`: 56 registers untouched, 72
//! under `-scev-cheap-expansion-budget=6`, every result wrong). The driver
//! reads ptxas's register counts; where a kernel without launch bounds
//! allows fewer threads than its build without S-L1, it gives that kernel
//! `.maxntid` of the untouched build's limit, and ptxas keeps it within the
//! registers that limit allows.

use std::collections::BTreeMap;

/// Registers each kernel uses, from `ptxas -v`'s output (entry functions
/// only: "Compiling entry function 'NAME'" then "Used N registers").
pub fn registers_from_ptxas(verbose: &str) -> BTreeMap<String, u32> {
    let mut registers = BTreeMap::new();
    let mut entry: Option<String> = None;
    for line in verbose.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            entry = rest.split('\'').next().map(str::to_string);
        } else if let Some(rest) = line.split("Used ").nth(1) {
            let count = rest.split(' ').next().and_then(|n| n.parse().ok());
            if let (Some(name), Some(count)) = (entry.take(), count) {
                registers.insert(name, count);
            }
        }
    }
    registers
}

/// The registers a block may use on `arch`: 64 K, except the Jetson
/// TX1/TX2 parts (sm_53, sm_62) with 32 K.
fn block_registers(arch: &str) -> u32 {
    match arch
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
    {
        "53" | "62" => 32 * 1024,
        _ => 64 * 1024,
    }
}

/// The most threads a block of a kernel using `registers` may have on
/// `arch`: registers are given per warp in units of 256.
pub fn max_block_threads(registers: u32, arch: &str) -> u32 {
    let per_warp = (registers.max(1) * 32).div_ceil(256) * 256;
    (block_registers(arch) / per_warp * 32).min(1024)
}

/// The entry functions of `ptx` that declare no block size (`.maxntid` or
/// `.reqntid` between the parameter list and the body) and no register
/// count (`.maxnreg`, from `__maxnreg__`: ptxas then holds that count
/// over a `.maxntid`, so the kernel's resources are the user's).
pub fn unbounded_entries(ptx: &str) -> Vec<String> {
    let mut unbounded = Vec::new();
    let mut lines = ptx.lines();
    while let Some(line) = lines.next() {
        let Some(name) = entry_name(line) else {
            continue;
        };
        let mut bounded = false;
        let mut header = Some(line);
        while let Some(text) = header {
            let code = text.split("//").next().unwrap_or("").trim();
            if [".maxntid", ".reqntid", ".maxnreg"]
                .iter()
                .any(|d| code.starts_with(d))
            {
                bounded = true;
            }
            if code.ends_with('{') || code == "{" || code.ends_with(';') {
                break;
            }
            header = lines.next();
        }
        if !bounded {
            unbounded.push(name);
        }
    }
    unbounded
}

/// The kernel a line `.visible .entry NAME(` declares.
fn entry_name(line: &str) -> Option<String> {
    let code = line.split("//").next()?;
    let rest = code.split(".entry ").nth(1)?;
    let name = rest.split(['(', ' ']).next()?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// `ptx` with `.maxntid threads` given to `kernel`, right after its
/// parameter list, where LLVM writes `__launch_bounds__`.
pub fn bound_entry(ptx: &str, kernel: &str, threads: u32) -> String {
    let mut out = String::with_capacity(ptx.len() + 32);
    let mut in_header = false;
    for line in ptx.split_inclusive('\n') {
        out.push_str(line);
        if entry_name(line).as_deref() == Some(kernel) {
            in_header = true;
        }
        let code = line.split("//").next().unwrap_or("").trim_end();
        if in_header && code.ends_with(')') {
            out.push_str(&format!(".maxntid {threads}\n"));
            in_header = false;
        }
    }
    out
}

/// A kernel whose S-L1 build would launch fewer threads than its build
/// without S-L1, and the bound that keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cap {
    pub kernel: String,
    /// Its registers in the S-L1 build, and in the build without S-L1.
    pub registers: u32,
    pub untouched_registers: u32,
    /// The block size the S-L1 build allowed, and the bound it gets: the
    /// untouched build's.
    pub threads: u32,
    pub bound: u32,
}

impl Cap {
    /// What the build says of it.
    pub fn describe(&self) -> String {
        format!(
            "given `.maxntid {bound}`: ptxas gave it {r} registers, which allow blocks of {t} \
             threads, where the plain clang build ({u} registers) launches blocks of {bound}; \
             add `__launch_bounds__` to the kernel to choose its block size yourself",
            bound = self.bound,
            r = self.registers,
            t = self.threads,
            u = self.untouched_registers,
        )
    }
}

/// The kernels of `unbounded` whose registers in the S-L1 build allow
/// smaller blocks than in the untouched build.
pub fn caps(
    unbounded: &[String],
    registers: &BTreeMap<String, u32>,
    untouched: &BTreeMap<String, u32>,
    arch: &str,
) -> Vec<Cap> {
    unbounded
        .iter()
        .filter_map(|kernel| {
            let (&ours, &theirs) = (registers.get(kernel)?, untouched.get(kernel)?);
            let (threads, bound) = (
                max_block_threads(ours, arch),
                max_block_threads(theirs, arch),
            );
            (threads < bound).then(|| Cap {
                kernel: kernel.clone(),
                registers: ours,
                untouched_registers: theirs,
                threads,
                bound,
            })
        })
        .collect()
}

/// Whether some kernel of `unbounded` launches fewer than 1024 threads: only
/// then is the build without S-L1 compiled to compare.
pub fn any_below_full_blocks(
    unbounded: &[String],
    registers: &BTreeMap<String, u32>,
    arch: &str,
) -> bool {
    unbounded.iter().any(|kernel| {
        registers
            .get(kernel)
            .is_some_and(|&r| max_block_threads(r, arch) < 1024)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERBOSE: &str = "ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_90'
ptxas info    : Function properties for _Z2k2Pf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 72 registers, used 0 barriers
ptxas info    : Function properties for helper
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 30 registers, used 0 barriers
ptxas info    : Compiling entry function 'empty' for 'sm_90'
ptxas info    : Function properties for empty
ptxas info    : Used 4 registers, used 0 barriers
";

    const PTX: &str = ".visible .entry _Z1kPf(
\t.param .u64 .ptr .align 1 _Z1kPf_param_0
)
.maxntid 256
{
\tret;
}
.visible .entry _Z2k2Pf(
\t.param .u64 .ptr .align 1 _Z2k2Pf_param_0
)                                       // @_Z2k2Pf
{
\tret;
}
.visible .entry empty()
{
\tret;
}
.visible .entry registers_chosen()
.maxnreg 128
{
\tret;
}
";

    #[test]
    fn registers_are_read_per_entry_function_not_per_device_function() {
        let registers = registers_from_ptxas(VERBOSE);
        assert_eq!(
            registers,
            BTreeMap::from([("_Z2k2Pf".to_string(), 72), ("empty".to_string(), 4)])
        );
    }

    #[test]
    fn blocks_shrink_past_64_registers_in_units_of_a_warp() {
        assert_eq!(max_block_threads(56, "sm_90"), 1024);
        assert_eq!(max_block_threads(64, "sm_90"), 1024);
        assert_eq!(max_block_threads(65, "sm_90"), 896);
        assert_eq!(max_block_threads(72, "sm_90"), 896);
        assert_eq!(max_block_threads(128, "sm_90"), 512);
        assert_eq!(max_block_threads(255, "sm_90"), 256);
        assert_eq!(max_block_threads(64, "sm_62"), 512);
    }

    #[test]
    fn entries_with_launch_bounds_or_a_register_count_are_not_unbounded() {
        assert_eq!(unbounded_entries(PTX), ["_Z2k2Pf", "empty"]);
    }

    #[test]
    fn a_bound_goes_after_the_parameter_list_and_binds_only_its_kernel() {
        let bound = bound_entry(PTX, "_Z2k2Pf", 1024);
        assert!(
            bound.contains(")                                       // @_Z2k2Pf\n.maxntid 1024\n{")
        );
        assert_eq!(unbounded_entries(&bound), ["empty"]);
        let empty = bound_entry(PTX, "empty", 512);
        assert!(empty.contains(".entry empty()\n.maxntid 512\n{"));
        assert_eq!(unbounded_entries(&empty), ["_Z2k2Pf"]);
    }

    #[test]
    fn only_kernels_that_lost_block_size_are_capped() {
        let ours = BTreeMap::from([
            ("lost".to_string(), 72),
            ("was_big".to_string(), 96),
            ("fits".to_string(), 60),
        ]);
        let untouched = BTreeMap::from([
            ("lost".to_string(), 56),
            ("was_big".to_string(), 96),
            ("fits".to_string(), 40),
        ]);
        let unbounded: Vec<String> = ["lost", "was_big", "fits"].map(String::from).to_vec();
        assert!(any_below_full_blocks(&unbounded, &ours, "sm_90"));
        let caps = caps(&unbounded, &ours, &untouched, "sm_90");
        assert_eq!(
            caps,
            [Cap {
                kernel: "lost".into(),
                registers: 72,
                untouched_registers: 56,
                threads: 896,
                bound: 1024
            }]
        );
        assert!(caps[0].describe().contains("`.maxntid 1024`"));
    }
}
