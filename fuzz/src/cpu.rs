//! Running a built kernel on the CPU with `lli-22`, one thread after
//! another: a GPU-free check of what a build computes, for regression tests
//! of miscompiles the GPU found. The optimised device IR is turned into a
//! host module: special registers become globals the host loop sets before
//! each thread, block barriers and warp synchronisation vanish (one thread
//! runs at a time), and a vote or shuffle gives the running thread's own
//! value. That is only faithful for builds without warp copies
//! (`--no-warp-copies`) and without merged loops (`--no-loop-merging`),
//! whose lanes exchange values, and for kernels whose threads do not wait
//! on each other; the threads' order is a parameter, so that a result that
//! hangs on it shows.

use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The order the threads of a launch run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Block 0 thread 0 first.
    Forward,
    /// The last thread of the last block first.
    Reverse,
}

/// One 1-D launch on the CPU: `kernel` of `ir` (optimised NVPTX IR text)
/// with pointer argument k on `buffers[buffer_of_arg[k]]`, then `scalars`.
pub struct CpuLaunch<'a> {
    pub ir: &'a str,
    pub kernel: &'a str,
    pub blocks: u32,
    pub threads: u32,
    pub buffer_of_arg: &'a [usize],
    pub scalars: &'a [u64],
    pub order: Order,
    /// The byte a block's shared memory holds when it starts (on the GPU,
    /// whatever an earlier block or kernel left there).
    pub shared_fill: u8,
}

const SREGS: [&str; 4] = ["tid", "ntid", "ctaid", "nctaid"];

/// Runs the launch on copies of `buffers` and returns them afterwards.
pub fn run(launch: &CpuLaunch<'_>, buffers: &[Vec<u8>]) -> Result<Vec<Vec<u8>>> {
    let (mut host, shared) = host_module(launch.ir)?;
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
fn host_module(ir: &str) -> Result<(String, Vec<(String, u64)>)> {
    let mut out = String::new();
    let mut shared = Vec::new();
    for line in ir.lines() {
        if line.starts_with("target ") {
            continue;
        }
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

/// The arguments of the call to `@name(...)` in `call`.
fn call_args<'a>(call: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let start = call.find(&format!("@{name}("))? + name.len() + 2;
    let mut depth = 0;
    for (k, c) in call[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                return Some(call[start..start + k].split(", ").collect());
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The value of an argument such as `i1 %p` or `i32 noundef 5`.
fn arg_value(arg: &str) -> &str {
    arg.rsplit(' ').next().unwrap_or(arg)
}

fn one_thread(line: &str) -> Result<String> {
    let Some((lhs, call)) = split_call(line) else {
        return Ok(line.to_string());
    };
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
        if which == "laneid" {
            return Ok(format!("{lhs}add i32 0, 0"));
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

fn main_function(launch: &CpuLaunch<'_>, buffers: &[Vec<u8>], shared: &[(String, u64)]) -> String {
    let mut out = String::new();
    out.push_str("declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)\n");
    for (k, b) in buffers.iter().enumerate() {
        let bytes: String = b.iter().map(|x| format!("\\{x:02X}")).collect();
        let _ = writeln!(
            out,
            "@emu.buf{k} = global [{} x i8] c\"{bytes}\", align 16",
            b.len()
        );
    }
    out.push_str("declare i64 @write(i32, ptr, i64)\n\n");
    let mut args: Vec<String> = launch
        .buffer_of_arg
        .iter()
        .map(|b| format!("ptr @emu.buf{b}"))
        .collect();
    args.extend(launch.scalars.iter().map(|s| format!("i64 {s}")));
    let total = u64::from(launch.blocks) * u64::from(launch.threads);
    let first = match launch.order {
        Order::Forward => "%k",
        Order::Reverse => "%rk",
    };
    let _ = write!(
        out,
        r#"define i32 @main() {{
entry:
  store i32 {threads}, ptr @emu.ntid.x
  store i32 1, ptr @emu.ntid.y
  store i32 1, ptr @emu.ntid.z
  store i32 {blocks}, ptr @emu.nctaid.x
  store i32 1, ptr @emu.nctaid.y
  store i32 1, ptr @emu.nctaid.z
  br label %run
run:
  %k = phi i64 [ 0, %entry ], [ %k.next, %call ]
  %rk = sub i64 {last}, %k
  %t = trunc i64 {first} to i32
  %tid = urem i32 %t, {threads}
  %ctaid = udiv i32 %t, {threads}
  store i32 %tid, ptr @emu.tid.x
  store i32 %ctaid, ptr @emu.ctaid.x
  %starts = icmp eq i32 %tid, {first_tid}
  br i1 %starts, label %fresh, label %call
fresh:
{fill}  br label %call
call:
  call void @{kernel}({args})
  %k.next = add i64 %k, 1
  %again = icmp ult i64 %k.next, {total}
  br i1 %again, label %run, label %done
done:
"#,
        threads = launch.threads,
        blocks = launch.blocks,
        first_tid = match launch.order {
            Order::Forward => 0,
            Order::Reverse => launch.threads - 1,
        },
        fill = shared
            .iter()
            .map(|(name, bytes)| {
                format!(
                    "  call void @llvm.memset.p3.i64(ptr addrspace(3) {name}, i8 {}, i64 {bytes}, i1 false)\n",
                    launch.shared_fill as i8
                )
            })
            .collect::<String>(),
        last = total - 1,
        kernel = launch.kernel,
        args = args.join(", "),
    );
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
