//! Running a built kernel on the CPU with `lli-22`, one thread after
//! another: a GPU-free check of what a build computes, for regression tests
//! of miscompiles the GPU found. The optimised device IR is turned into a
//! host module: special registers become globals the host loop sets before
//! each thread, block barriers and warp synchronisation vanish (one thread
//! runs at a time), and a vote, shuffle or warp sum gives the running
//! thread's own value (it is lane 0 of a warp of its own). That is only
//! faithful for builds without warp copies (`--no-warp-copies`) and
//! without merged loops (`--no-loop-merging`), whose lanes exchange values,
//! and for kernels whose threads do not wait on each other; the threads'
//! order is a parameter, so that a result that hangs on it shows.

use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::launches::CaseRun;

/// The order the threads of a launch run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Block 0 thread 0 first.
    Forward,
    /// The last thread of the last block first.
    Reverse,
}

/// A case's launches (the runner's [`CaseRun`]: kernels in order, argument
/// offsets, scalars) on the module `ir` (optimised NVPTX IR text), pointer
/// argument k on `buffers[buffer_of_arg[k]]`.
pub struct CpuRun<'a> {
    pub ir: &'a str,
    pub case: &'a CaseRun,
    pub buffer_of_arg: &'a [usize],
    pub order: Order,
    /// The byte a block's shared memory holds when it starts (on the GPU,
    /// whatever an earlier block or kernel left there).
    pub shared_fill: u8,
}

const SREGS: [&str; 4] = ["tid", "ntid", "ctaid", "nctaid"];

/// Runs the launch on copies of `buffers` and returns them afterwards.
pub fn run(launch: &CpuRun<'_>, buffers: &[Vec<u8>]) -> Result<Vec<Vec<u8>>> {
    let dynamic = launch
        .case
        .launches
        .iter()
        .map(|l| l.dynamic_shared)
        .max()
        .unwrap_or(0);
    let (mut host, shared) = host_module(launch.ir, dynamic)?;
    host.push_str(&main_function(launch, buffers, &shared));
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("host.ll");
    std::fs::write(&file, &host)?;
    // The buffers come back through a file: a pipe would fill and stall lli.
    let written = dir.path().join("buffers.bin");
    let mut child = Command::new("lli-22")
        .arg(&file)
        .stdout(std::fs::File::create(&written)?)
        .stderr(Stdio::piped())
        .spawn()
        .context("lli-22 does not run (package llvm-22-runtime, which ci/setup installs)")?;
    // A miscompiled loop may never end.
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait()?.is_none() {
        if Instant::now() > deadline {
            child.kill()?;
            bail!("the kernel did not finish within 120 s on the CPU");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!(
            "lli-22 failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let bytes = std::fs::read(&written)?;
    let mut rest = bytes.as_slice();
    let mut result = Vec::new();
    for b in buffers {
        anyhow::ensure!(rest.len() >= b.len(), "lli-22 wrote too few bytes");
        let (this, tail) = rest.split_at(b.len());
        result.push(this.to_vec());
        rest = tail;
    }
    Ok(result)
}

/// The device module as a host module: no target, no kernel calling
/// convention, the NVPTX intrinsics replaced by their one-thread meaning.
/// Returns the host module and its shared-memory globals (name, bytes).
fn host_module(ir: &str, dynamic: u32) -> Result<(String, Vec<(String, u64)>)> {
    let mut out = String::new();
    let mut shared = Vec::new();
    for line in ir.lines() {
        if line.starts_with("target ") {
            continue;
        }
        // Dynamic shared memory (`extern __shared__`): as large as the
        // largest launch gives.
        let defined;
        // (`external`, and after optimisation `external local_unnamed_addr`)
        let external = line.contains("= external ") && line.contains(" addrspace(3) global ");
        let line = if line.starts_with('@') && external {
            let name = line.split_whitespace().next().unwrap_or_default();
            defined =
                format!("{name} = addrspace(3) global [{dynamic} x i8] zeroinitializer, align 16");
            defined.as_str()
        } else {
            line
        };
        if line.starts_with('@') && line.contains("addrspace(3) global [") {
            let name = line.split_whitespace().next().unwrap_or_default();
            let bytes = line
                .split("global [")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            shared.push((name.to_string(), bytes));
        }
        let line = line.replace("ptx_kernel ", "");
        if line.starts_with("declare") && line.contains("@llvm.nvvm.") {
            continue;
        }
        out.push_str(&one_thread(&line)?);
        out.push('\n');
    }
    for reg in SREGS {
        for dim in ["x", "y", "z"] {
            let _ = writeln!(out, "@emu.{reg}.{dim} = global i32 0");
        }
    }
    let _ = writeln!(out, "@emu.dynamic_smem_size = global i32 0");
    Ok((out, shared))
}

/// The call's instruction text from `call` on, and what precedes it.
fn split_call(line: &str) -> Option<(&str, &str)> {
    let at = line.find("call ")?;
    // `%x = tail call ...`: the result's name stays, the call's kind goes.
    let lhs = match line[..at].find("= ") {
        Some(eq) => &line[..eq + 2],
        None => &line[..line.len() - line.trim_start().len()],
    };
    Some((lhs, &line[at..]))
}

/// The arguments of the call to `@name(...)` in `call`, split at the
/// commas outside parentheses (constant expressions have their own).
fn call_args<'a>(call: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let start = call.find(&format!("@{name}("))? + name.len() + 2;
    let mut depth = 0;
    let mut args = Vec::new();
    let mut from = start;
    for (k, c) in call[start..].char_indices() {
        let at = start + k;
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                args.push(call[from..at].trim());
                return Some(args);
            }
            ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(call[from..at].trim());
                from = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// The value of an argument such as `i1 %p`, `i32 noundef 5` or
/// `i32 ptrtoint (ptr addrspace(3) @x to i32)`: what follows its type.
fn arg_value(arg: &str) -> &str {
    let value = arg.split_once(' ').map_or(arg, |(_, v)| v);
    value.strip_prefix("noundef ").unwrap_or(value)
}

fn one_thread(line: &str) -> Result<String> {
    // The L2 prefetch hint (`--prefetch`) has no CPU meaning, nor need.
    if line.contains("asm sideeffect \"prefetch.") {
        return Ok(String::new());
    }
    let Some((lhs, call)) = split_call(line) else {
        return Ok(line.to_string());
    };
    // `xor.bN r, x, 0` keeps float bits out of narrow stores (ptxas's
    // sake, `sl1_pass::ptxas_bugs`): on the CPU, the value itself.
    if let Some(operand) = call
        .strip_prefix("call ")
        .filter(|c| c.contains(" asm \"xor.b") && c.contains(", 0;\""))
        .and_then(|c| c.rsplit_once('(')?.1.strip_suffix(')'))
    {
        return Ok(format!("{lhs}xor {operand}, 0"));
    }
    let Some(at) = call.find("@llvm.nvvm.") else {
        return Ok(line.to_string());
    };
    let name: String = call[at + 1..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
        .collect();
    if let Some(reg) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
        let (which, dim) = reg.rsplit_once('.').unwrap_or((reg, "x"));
        if SREGS.contains(&which) {
            return Ok(format!("{lhs}load i32, ptr @emu.{which}.{dim}"));
        }
        if which == "dynamic_smem_size" {
            return Ok(format!("{lhs}load i32, ptr @emu.dynamic_smem_size"));
        }
        if which == "nsmid" {
            // The H100's multiprocessors, for decisions that estimate the
            // threads resident per SM.
            return Ok(format!("{lhs}add i32 0, 132"));
        }
        if which == "smid" {
            return Ok(format!("{lhs}add i32 0, 0"));
        }
        if which == "laneid" {
            return Ok(format!("{lhs}add i32 0, 0"));
        }
        // The running thread is lane 0 of a warp of its own (`activemask`).
        if let Some(mask) = match reg {
            "lanemask.lt" => Some(0),
            "lanemask.eq" | "lanemask.le" => Some(1),
            _ => None,
        } {
            return Ok(format!("{lhs}add i32 0, {mask}"));
        }
        if which == "warpsize" {
            return Ok(format!("{lhs}add i32 0, 32"));
        }
        bail!("no CPU meaning for special register `{reg}`");
    }
    let args = call_args(call, &name).unwrap_or_default();
    let returns_nothing = !lhs.contains('=');
    match name.as_str() {
        // One thread at a time: nothing to wait for.
        n if returns_nothing
            && (n.starts_with("llvm.nvvm.barrier")
                || n.starts_with("llvm.nvvm.bar.")
                || n.starts_with("llvm.nvvm.membar")
                || n.starts_with("llvm.nvvm.fence")
                || n.starts_with("llvm.nvvm.prefetch")) =>
        {
            Ok(String::new())
        }
        // A block reduction of one thread is its own vote.
        n if n.starts_with("llvm.nvvm.barrier.cta.red.") => {
            Ok(format!("{lhs}or i1 false, {}", arg_value(args[1])))
        }
        "llvm.nvvm.activemask" => Ok(format!("{lhs}add i32 0, 1")),
        "llvm.nvvm.vote.ballot.sync" => Ok(format!("{lhs}zext i1 {} to i32", arg_value(args[1]))),
        "llvm.nvvm.vote.any.sync" | "llvm.nvvm.vote.all.sync" => {
            Ok(format!("{lhs}or i1 false, {}", arg_value(args[1])))
        }
        // A warp's sum of its one thread's value (warp atomics).
        "llvm.nvvm.redux.sync.add" => Ok(format!("{lhs}add i32 {}, 0", arg_value(args[0]))),
        n if n.starts_with("llvm.nvvm.shfl.sync.") => {
            let ty = if n.ends_with(".f32") { "float" } else { "i32" };
            let v = arg_value(args[1]);
            if ty == "float" {
                Ok(format!("{lhs}fadd float {v}, 0.0"))
            } else {
                Ok(format!("{lhs}add i32 {v}, 0"))
            }
        }
        n => bail!("no CPU meaning for `{n}`"),
    }
}

/// `bytes` as the text of an LLVM string constant: every byte `\XX`
/// (written without a `format!` a byte: buffers run to megabytes).
fn escaped_bytes(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut text = String::with_capacity(bytes.len() * 3);
    for &x in bytes {
        text.push('\\');
        text.push(char::from(HEX[usize::from(x >> 4)]));
        text.push(char::from(HEX[usize::from(x & 15)]));
    }
    text
}

fn main_function(run: &CpuRun<'_>, buffers: &[Vec<u8>], shared: &[(String, u64)]) -> String {
    let mut out = String::new();
    out.push_str("declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)\n");
    for (k, b) in buffers.iter().enumerate() {
        let bytes = escaped_bytes(b);
        let _ = writeln!(
            out,
            "@emu.buf{k} = global [{} x i8] c\"{bytes}\", align 16",
            b.len()
        );
    }
    out.push_str("declare i64 @write(i32, ptr, i64)\n\n");
    let mut args: Vec<String> = run
        .buffer_of_arg
        .iter()
        .zip(&run.case.arg_offsets)
        .map(|(b, off)| format!("ptr getelementptr (i8, ptr @emu.buf{b}, i64 {off})"))
        .collect();
    args.extend(run.case.scalars.iter().map(|s| format!("i64 {s}")));
    let args = args.join(", ");
    let fill: String = shared
        .iter()
        .map(|(name, bytes)| {
            format!(
                "  call void @llvm.memset.p3.i64(ptr addrspace(3) {name}, i8 {}, i64 {bytes}, i1 false)\n",
                run.shared_fill as i8
            )
        })
        .collect();
    out.push_str("define i32 @main() {\nentry:\n");
    for (n, launch) in run.case.launches.iter().enumerate() {
        let (gx, gy) = launch.grid;
        let (bx, by) = launch.block;
        let threads = bx * by;
        let total = u64::from(gx * gy) * u64::from(threads);
        let first = match run.order {
            Order::Forward => "%k",
            Order::Reverse => "%rk",
        };
        let first_tid = match run.order {
            Order::Forward => 0,
            Order::Reverse => threads - 1,
        };
        // Thread `t` of the launch (in the chosen order): block t / threads,
        // block x fastest; in the block, x fastest.
        let _ = write!(
            out,
            r#"  store i32 {bx}, ptr @emu.ntid.x
  store i32 {by}, ptr @emu.ntid.y
  store i32 1, ptr @emu.ntid.z
  store i32 {gx}, ptr @emu.nctaid.x
  store i32 {gy}, ptr @emu.nctaid.y
  store i32 1, ptr @emu.nctaid.z
  store i32 {dynamic}, ptr @emu.dynamic_smem_size
  br label %run{n}
run{n}:
  %k{n} = phi i64 [ 0, %{prev} ], [ %k.next{n}, %call{n} ]
  %rk{n} = sub i64 {last}, %k{n}
  %t{n} = trunc i64 {first}{n} to i32
  %in{n} = urem i32 %t{n}, {threads}
  %block{n} = udiv i32 %t{n}, {threads}
  %tx{n} = urem i32 %in{n}, {bx}
  %ty{n} = udiv i32 %in{n}, {bx}
  %cx{n} = urem i32 %block{n}, {gx}
  %cy{n} = udiv i32 %block{n}, {gx}
  store i32 %tx{n}, ptr @emu.tid.x
  store i32 %ty{n}, ptr @emu.tid.y
  store i32 %cx{n}, ptr @emu.ctaid.x
  store i32 %cy{n}, ptr @emu.ctaid.y
  %starts{n} = icmp eq i32 %in{n}, {first_tid}
  br i1 %starts{n}, label %fresh{n}, label %call{n}
fresh{n}:
{fill}  br label %call{n}
call{n}:
  call void @{kernel}({args})
  %k.next{n} = add i64 %k{n}, 1
  %again{n} = icmp ult i64 %k.next{n}, {total}
  br i1 %again{n}, label %run{n}, label %done{n}
done{n}:
"#,
            prev = if n == 0 {
                "entry".to_string()
            } else {
                format!("done{}", n - 1)
            },
            last = total - 1,
            kernel = launch.kernel,
            dynamic = launch.dynamic_shared,
        );
    }
    for (k, b) in buffers.iter().enumerate() {
        let _ = writeln!(
            out,
            "  call i64 @write(i32 1, ptr @emu.buf{k}, i64 {})",
            b.len()
        );
    }
    out.push_str("  ret i32 0\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_bytes_are_llvm_string_escapes() {
        let bytes: Vec<u8> = (0..=255).collect();
        let want: String = bytes.iter().map(|x| format!("\\{x:02X}")).collect();
        assert_eq!(escaped_bytes(&bytes), want);
    }

    #[test]
    fn dynamic_shared_memory_is_defined_as_large_as_the_launches_give() {
        // Optimised builds spell it `external local_unnamed_addr`, which
        // the emulator once left undefined (lli: "Symbols not found").
        for decl in [
            "@dyn = external addrspace(3) global [0 x i8], align 16",
            "@dyn = external local_unnamed_addr addrspace(3) global [0 x i8], align 16",
        ] {
            let (host, shared) = host_module(decl, 512).unwrap();
            assert!(
                host.contains("@dyn = addrspace(3) global [512 x i8] zeroinitializer"),
                "{host}"
            );
            assert_eq!(shared, [("@dyn".to_string(), 512)]);
        }
    }

    #[test]
    fn the_float_bits_guard_is_the_value_itself() {
        let line = "  %sl1.float.bits = call i64 asm \"xor.b64 $0, $1, 0;\", \"=l,l\"(i64 %12)";
        assert_eq!(
            one_thread(line).unwrap(),
            "  %sl1.float.bits = xor i64 %12, 0"
        );
        let other = "  %v = call i32 asm \"mov.u32 $0, %dynamic_smem_size;\", \"=r\"()";
        assert_eq!(one_thread(other).unwrap(), other);
    }
}
