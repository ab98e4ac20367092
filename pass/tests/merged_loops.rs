//! Inner loops merged into their top-level loop (`tuning::merge_divergent_loops`),
//! on `testdata/ll/merged_loops.ll`: which loops merge, what the report says,
//! and that a merged kernel computes what the original does (run on the CPU
//! with `lli`, the warp vote replaced by its one-thread meaning).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::transform_case;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::{run_on_module, Options};

fn tuning() -> Options {
    Options {
        device_tuning: true,
        ..Options::default()
    }
}

#[test]
fn loops_whose_inner_trip_counts_depend_on_loads_merge() {
    let t = transform_case("merged_loops", &tuning());
    let tuned = t
        .report
        .device_rewrites
        .as_ref()
        .expect("device tuning ran");
    let merged: Vec<(&str, &str, Vec<&str>)> = tuned
        .merged_loops
        .iter()
        .map(|m| {
            (
                m.kernel.as_str(),
                m.outer.as_str(),
                m.inner.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        merged,
        vec![
            ("lines", "outer", vec!["inner"]),
            ("guarded", "outer", vec!["inner"]),
            ("every", "outer", vec!["inner"]),
            ("ended", "outer", vec!["inner"]),
            ("pattern", "outer", vec!["inner"])
        ]
    );
    assert!(t.report.transformed);
    // The pattern compare inside the merged line loop goes on while bytes
    // are equal: its first iteration comes out in front of it. Nothing else
    // here has a loop inside a merged inner loop.
    let peeled: Vec<(&str, Vec<&str>)> = tuned
        .merged_loops
        .iter()
        .filter(|m| !m.peeled.is_empty())
        .map(|m| {
            (
                m.kernel.as_str(),
                m.peeled.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(peeled, vec![("pattern", vec!["match"])]);
    assert!(t.text("pattern").contains("peel"), "{}", t.text("pattern"));

    let kept = |kernel: &str| {
        tuned
            .kept_nested
            .iter()
            .find(|k| k.kernel == kernel)
            .map(|k| k.reason.clone())
    };
    assert!(kept("barrier").unwrap().contains("convergent"));
    assert!(kept("rare").unwrap().contains("more than 3 tests"));
    assert!(kept("four").unwrap().contains("more than 3 tests"));
    // A counted inner loop is neither merged nor reported, nor is one that
    // runs to a bound loaded before it (a CSR row: its count is known on
    // entry; merged, spmv_csr ran 0.59x of nvcc on the H200, 2026-11-28).
    for counted in ["counted", "rows"] {
        assert_eq!(kept(counted), None);
        assert!(!t.text(counted).contains("sl1.merged"), "{counted}");
    }

    let lines = t.text("lines");
    // The dispatch block, the threads' vote in it, and the count of who
    // entered the loop.
    assert!(lines.contains("sl1.merged:"), "{lines}");
    assert!(lines.contains("@llvm.nvvm.vote.ballot.sync("), "{lines}");
    assert!(lines.contains("@llvm.nvvm.activemask()"), "{lines}");
    // No stack slot is left: the merge's slots went back to registers.
    assert!(!lines.contains("alloca"), "{lines}");
    for kept in ["barrier", "rare", "four"] {
        assert!(!t.text(kept).contains("vote.ballot"), "{kept}");
    }
}

#[test]
fn only_the_threads_that_enter_a_merged_loop_vote_in_it() {
    // The vote's first mask was read before the guard's branch, so it named
    // threads with empty chunks that never entered the loop: on the GPU the
    // threads in the loop waited for them at the vote, and those waited for
    // the loop's threads at a shuffle after it (seed 400019, `--no-sl1`,
    // 2026-11-25). The mask is read on each edge into the loop.
    let t = transform_case("merged_loops", &tuning());
    for kernel in ["lines", "guarded"] {
        let text = t.text(kernel);
        let blocks: Vec<&str> = text.split("\n\n").collect();
        let reading: Vec<&&str> = blocks
            .iter()
            .filter(|b| b.contains("@llvm.nvvm.activemask()"))
            .collect();
        assert!(!reading.is_empty(), "{kernel}: no mask read\n{text}");
        for block in reading {
            let last = block.trim_end().lines().last().unwrap_or_default();
            assert!(
                last.trim_start().starts_with("br label %sl1.merged"),
                "{kernel}: the mask is read where threads may still leave:\n{block}"
            );
        }
    }
}

#[test]
fn merging_needs_device_tuning_and_can_be_turned_off() {
    for options in [
        Options::default(),
        Options {
            loop_merging: false,
            ..tuning()
        },
    ] {
        let t = transform_case("merged_loops", &options);
        assert!(!t.text("lines").contains("sl1.merged"));
        let merged = t
            .report
            .device_rewrites
            .as_ref()
            .map_or(0, |d| d.merged_loops.len());
        assert_eq!(merged, 0);
    }
}

#[test]
fn merged_kernel_counts_what_the_original_counts() {
    let text: &[u8] = b"ab a\naaaa aa\n\nxa\nbanana band\na\n\nno\naaaaaaaaaaaaaaaaa\nlast line a\nabab cab ab\nab";
    let (chunk, threads) = (5u64, text.len().div_ceil(5) as u64);
    let expected = checksum(&reference(text, chunk, threads));
    let every_expected = checksum(&from_every_position(text, chunk, threads));

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/ll/merged_loops.ll");
    let original = std::fs::read_to_string(&path).unwrap();
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(&path).unwrap())
        .unwrap();
    let report = run_on_module(&module, &tuning()).unwrap();
    assert_eq!(report.device_rewrites.unwrap().merged_loops.len(), 5);
    let pattern_expected = checksum(&pattern_counts(text, chunk, threads));
    let merged = module.print_to_string().to_string();

    for (label, ir) in [("original", original), ("merged", merged)] {
        let got = run_on_cpu(&ir, "lines", text, chunk, threads);
        assert_eq!(got, expected, "{label} kernel");
        // Two threads past the text: their chunks are empty.
        let got = run_on_cpu(&ir, "guarded", text, chunk, threads + 2);
        assert_eq!(got, expected, "{label} guarded kernel");
        let got = run_on_cpu(&ir, "every", text, chunk, threads);
        assert_eq!(got, every_expected, "{label} every kernel");
        let got = run_on_cpu(&ir, "pattern", text, chunk, threads);
        assert_eq!(got, pattern_expected, "{label} pattern kernel");
    }
}

#[test]
fn every_thread_at_a_rounds_vote_is_in_its_mask() {
    // The rounds' vote took the mask after the iteration's first vote,
    // which leaves out the threads leaving the loop; they take part in the
    // rounds' vote all the same, and a thread outside a vote's mask stopped
    // the kernel with an illegal instruction on the H100 (fuzzer seed
    // 92906, default build, 2026-11-26). Both votes take the same mask.
    let t = transform_case("merged_loops", &tuning());
    for kernel in ["lines", "guarded"] {
        let text = t.text(kernel);
        let masks: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split("@llvm.nvvm.vote.ballot.sync(i32 ").nth(1))
            .map(|args| args.split(',').next().unwrap_or_default())
            .collect();
        assert_eq!(masks.len(), 2, "{kernel}:\n{text}");
        assert_eq!(masks[0], masks[1], "{kernel}:\n{text}");
        let first = text
            .lines()
            .find(|l| l.contains("@llvm.nvvm.vote.ballot.sync("))
            .and_then(|l| l.split('=').next())
            .map(str::trim)
            .unwrap_or_default();
        assert_ne!(
            masks[1], first,
            "{kernel}: the rounds vote takes the first vote's result"
        );
    }
}

#[test]
fn searches_that_test_loaded_data_run_in_rounds() {
    // grep on the H100 (2026-11-26): merged, each thread back from a line
    // searched for the next line start while the warp's others waited in
    // the middle of theirs, 4.32 ms; in rounds 1.83 ms.
    let t = transform_case("merged_loops", &tuning());
    let tuned = t
        .report
        .device_rewrites
        .as_ref()
        .expect("device tuning ran");
    let rounds = |kernel: &str| {
        tuned
            .merged_loops
            .iter()
            .find(|m| m.kernel == kernel)
            .map(|m| m.rounds)
    };
    assert_eq!(rounds("lines"), Some(true));
    assert_eq!(rounds("guarded"), Some(true));
    // Every iteration enters the line loop: no search to gather.
    assert_eq!(rounds("every"), Some(false));
    // An empty row skips the loop by its guard, straight to where the loop
    // leaves to: that is no search either.
    assert_eq!(rounds("ended"), Some(false));
    // A CSR row runs to an end loaded before its loop: a count, not merged.
    assert_eq!(rounds("rows"), None);
    let lines = t.text("lines");
    assert!(lines.contains("sl1.merged.wait"), "{lines}");
    assert!(lines.contains("sl1.merged.busy"), "{lines}");
    assert_eq!(
        lines.matches("@llvm.nvvm.vote.ballot.sync(").count(),
        2,
        "{lines}"
    );
    let every = t.text("every");
    assert!(every.contains("sl1.merged:"), "{every}");
    assert!(!every.contains("sl1.merged.wait"), "{every}");
    assert!(
        t.report
            .to_text(&sl1_core::option_list::Hint::plugin_flag)
            .contains("run in rounds"),
        "{}",
        t.report.to_text(&sl1_core::option_list::Hint::plugin_flag)
    );
}

/// At each line start of a thread's chunk, `count` of the line (without
/// its newline); 0 elsewhere.
fn per_line_start(text: &[u8], chunk: u64, threads: u64, count: impl Fn(&[u8]) -> u64) -> Vec<u64> {
    let mut out = vec![0u64; text.len()];
    let n = text.len() as u64;
    for t in 0..threads {
        for i in t * chunk..((t + 1) * chunk).min(n) {
            if i != 0 && text[i as usize - 1] != b'\n' {
                continue;
            }
            let rest = &text[i as usize..];
            let line = &rest[..rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())];
            out[i as usize] = count(line);
        }
    }
    out
}

/// What `lines` writes: at each line start, the line's count of 'a'.
fn reference(text: &[u8], chunk: u64, threads: u64) -> Vec<u64> {
    per_line_start(text, chunk, threads, |line| {
        line.iter().filter(|&&c| c == b'a').count() as u64
    })
}

/// What `every` writes: at each position, the 'a's up to the next newline.
fn from_every_position(text: &[u8], chunk: u64, threads: u64) -> Vec<u64> {
    let n = text.len() as u64;
    (0..n)
        .map(|i| {
            if i >= chunk * threads {
                return 0;
            }
            text[i as usize..]
                .iter()
                .take_while(|&&c| c != b'\n')
                .filter(|&&c| c == b'a')
                .count() as u64
        })
        .collect()
}

/// What `@pattern` leaves: at each line start of a thread's chunk, the
/// count of "ab" in the line.
fn pattern_counts(text: &[u8], chunk: u64, threads: u64) -> Vec<u64> {
    per_line_start(text, chunk, threads, |line| {
        line.windows(2).filter(|w| w == b"ab").count() as u64
    })
}

fn checksum(out: &[u64]) -> u64 {
    out.iter()
        .enumerate()
        .map(|(k, v)| (k as u64 + 1) * v)
        .sum()
}

/// Runs `kernel` (`@lines`, `@guarded` or `@every`) of `ir` for every thread in turn with `lli` and returns the
/// checksum its `main` prints. The kernel's calling convention, the target
/// and the warp intrinsics go: with one thread at a time, the threads that
/// entered are the one running, and it stays while it votes to stay.
fn run_on_cpu(ir: &str, kernel: &str, text: &[u8], chunk: u64, threads: u64) -> u64 {
    let mut host = String::new();
    for line in ir.lines() {
        if line.starts_with("target ") {
            continue;
        }
        let line = line.replace("ptx_kernel ", "");
        host.push_str(&one_thread(&line));
        host.push('\n');
    }
    let n = text.len();
    let bytes: String = text.iter().map(|b| format!("\\{b:02X}")).collect();
    host.push_str(&format!(
        r#"
@input = private constant [{n} x i8] c"{bytes}"
@result = global [{n} x i64] zeroinitializer
@format = private constant [6 x i8] c"%llu\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {{
entry:
  br label %run
run:
  %t = phi i64 [ 0, %entry ], [ %t.next, %run ]
  call void @{kernel}(ptr @input, ptr @result, i64 {n}, i64 {chunk}, i64 %t)
  %t.next = add i64 %t, 1
  %again = icmp ult i64 %t.next, {threads}
  br i1 %again, label %run, label %sum
sum:
  %k = phi i64 [ 0, %run ], [ %k.next, %sum ]
  %acc = phi i64 [ 0, %run ], [ %acc.next, %sum ]
  %p = getelementptr i64, ptr @result, i64 %k
  %v = load i64, ptr %p
  %k.next = add i64 %k, 1
  %w = mul i64 %v, %k.next
  %acc.next = add i64 %acc, %w
  %more = icmp ult i64 %k.next, {n}
  br i1 %more, label %sum, label %print
print:
  call i32 (ptr, ...) @printf(ptr @format, i64 %acc.next)
  ret i32 0
}}
"#
    ));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("host.ll");
    std::fs::write(&file, &host).unwrap();
    let mut child = Command::new("lli-22")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lli-22 runs (package llvm-22-runtime, which ci/setup installs)");
    // A wrongly merged loop may never end.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the kernel did not finish within 60 s on the CPU:\n{host}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let run = child.wait_with_output().unwrap();
    assert!(
        run.status.success(),
        "lli-22 failed: {}\n{host}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).trim().parse().unwrap()
}

/// `line` with the warp intrinsics replaced by what they give one thread
/// running alone: `activemask` its own bit, `vote.ballot.sync(mask, p)` `p`,
/// a barrier nothing.
fn one_thread(line: &str) -> String {
    // Comments (the case's FileCheck lines among them) are not code.
    if line.trim_start().starts_with(';') {
        return line.to_string();
    }
    if line.contains("call void @llvm.nvvm.barrier") {
        return String::new();
    }
    if let Some(at) = line.find("call i32 @llvm.nvvm.activemask()") {
        return format!("{}add i32 0, 1", &line[..at]);
    }
    if let Some(at) = line.find("call i32 @llvm.nvvm.vote.ballot.sync(") {
        let args = &line[at + "call i32 @llvm.nvvm.vote.ballot.sync(".len()..];
        let vote = args
            .split(", ")
            .nth(1)
            .and_then(|a| a.strip_prefix("i1 "))
            .map(|a| a.trim_end_matches(')'))
            .expect("ballot(i32 mask, i1 vote)");
        return format!("{}zext i1 {vote} to i32", &line[..at]);
    }
    line.to_string()
}

/// A byte stream beside an atomicCAS retry loop (`testdata/ll/cas_retry.ll`,
/// the do-no-harm kernel `cas_add`): with device tuning the loop is left to
/// the merge (cached, it ran 1.1x-7x the merged loop's time on the H200);
/// without the merge it is cached.
#[test]
fn a_loop_the_merge_takes_is_not_cached() {
    let t = transform_case("cas_retry", &tuning());
    let kernel = t.kernel("cas_add");
    assert!(!kernel.applied, "{:?}", kernel.reasons);
    assert!(
        matches!(
            kernel.reasons[..],
            [sl1_pass::report::Reason::LeftToLoopMerge { ref inner, .. }] if inner == "retry"
        ),
        "{:?}",
        kernel.reasons
    );
    let merged = &t.report.device_rewrites.as_ref().unwrap().merged_loops;
    assert_eq!(merged.len(), 1, "{merged:?}");
    let unmerged = Options {
        loop_merging: false,
        ..tuning()
    };
    assert!(
        transform_case("cas_retry", &unmerged)
            .kernel("cas_add")
            .applied
    );
}
