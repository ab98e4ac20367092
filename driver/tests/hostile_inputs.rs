//! Hostile input to the IR reader path and the pass: mutated and truncated
//! `.ll`/`.bc` files, irreducible control flow, recursion and a huge kernel.
//! Each gets a clear error (exit 1, the file named) or a built module with
//! the report saying what was left alone; never a crash or a broken module.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use common::*;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::{run_on_module, Error, Options};

/// A small seeded generator (xorshift64*): mutations reproduce by seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One to three edits of the kind that break IR text: a line deleted,
/// duplicated or swapped with another, a character replaced, a cut. The
/// comment lines are left out first: the cases carry many FileCheck lines,
/// and an edit there tests nothing.
fn mutate(text: &str, seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with(';'))
        .map(str::to_string)
        .collect();
    for _ in 0..1 + rng.below(3) {
        let n = lines.len();
        let at = rng.below(n);
        match rng.below(5) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let line = lines[at].clone();
                lines.insert(rng.below(n), line);
            }
            2 => lines.swap(at, rng.below(n)),
            3 => {
                let line = &mut lines[at];
                if !line.is_empty() {
                    let mut chars: Vec<char> = line.chars().collect();
                    let pos = rng.below(chars.len());
                    chars[pos] = ['%', '0', '@', 'i', '(', ',', ' ', '9', '}'][rng.below(9)];
                    *line = chars.into_iter().collect();
                }
            }
            _ => lines.truncate(at.max(1)),
        }
        if lines.is_empty() {
            break;
        }
    }
    lines.join("\n") + "\n"
}

fn ll_cases() -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(testdata("ll"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    cases
}

/// What the driver's IR path does before the pass: parse, verify, check
/// the target. `None` when it would refuse the input (with a message).
fn accepted<'c>(context: &'c Context, text: &str) -> Option<inkwell::module::Module<'c>> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "mutant.ll");
    let module = context.create_module_from_ir(buffer).ok()?;
    module.verify().ok()?;
    let triple = module.get_triple();
    triple
        .as_str()
        .to_string_lossy()
        .starts_with("nvptx64")
        .then_some(module)
}

#[test]
fn mutated_ir_is_refused_or_transformed_never_broken() {
    const PER_CASE: u64 = 80;
    let (mut refused, mut passed) = (0, 0);
    for case in ll_cases() {
        let text = std::fs::read_to_string(&case).unwrap();
        for seed in 0..PER_CASE {
            let mutant = mutate(&text, seed);
            let context = Context::create();
            let Some(module) = accepted(&context, &mutant) else {
                refused += 1;
                continue;
            };
            passed += 1;
            let result = catch_unwind(AssertUnwindSafe(|| {
                run_on_module(&module, &Options::default())
            }));
            let name = case.file_name().unwrap().to_string_lossy();
            match result {
                Err(_) => panic!("{name}, mutation seed {seed}: the pass panicked on\n{mutant}"),
                Ok(Err(Error::Broken { message })) => {
                    panic!("{name}, mutation seed {seed}: broken module: {message}\n{mutant}")
                }
                Ok(_) => {}
            }
            module
                .verify()
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}\n{mutant}"));
        }
    }
    // Both outcomes occur, or the mutations test nothing.
    assert!(
        refused > 100 && passed > 100,
        "refused {refused}, passed {passed}"
    );
}

#[test]
fn the_driver_refuses_mutants_with_a_message_or_builds_them() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(testdata("ll/line_runs.ll")).unwrap();
    let mut codes = [0; 2];
    for seed in 0..24u64 {
        let path = dir.path().join(format!("mutant{seed}.ll"));
        std::fs::write(&path, mutate(&text, seed)).unwrap();
        let out = run(driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(dir.path().join("m.ptx"))
            .arg(&path));
        match out.code {
            Some(0) => codes[0] += 1,
            Some(1) => {
                codes[1] += 1;
                assert!(
                    out.stderr.starts_with("sl1-driver: error:")
                        && out.stderr.contains(&format!("mutant{seed}.ll")),
                    "seed {seed}:\n{}",
                    out.stderr
                );
            }
            other => panic!("seed {seed}: exit {other:?} (a crash?)\n{}", out.stderr),
        }
    }
    assert!(codes[0] > 0 && codes[1] > 0, "built/refused: {codes:?}");
}

#[test]
fn truncated_and_random_bitcode_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let context = Context::create();
    let module = context
        .create_module_from_ir(
            MemoryBuffer::create_from_file(&testdata("ll/line_runs.ll")).unwrap(),
        )
        .unwrap();
    let good = dir.path().join("good.bc");
    assert!(module.write_bitcode_to_path(&good));
    let bytes = std::fs::read(&good).unwrap();
    let mut rng = Rng(7);
    let random: Vec<u8> = (0..2000).map(|_| rng.next() as u8).collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("quarter", bytes[..bytes.len() / 4].to_vec()),
        ("half", bytes[..bytes.len() / 2].to_vec()),
        ("most", bytes[..bytes.len() - 9].to_vec()),
        ("random", random),
        ("empty", Vec::new()),
    ];
    for (name, data) in cases {
        let path = dir.path().join(format!("{name}.bc"));
        std::fs::write(&path, data).unwrap();
        let out = run(driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(dir.path().join("x.ptx"))
            .arg(&path));
        assert_eq!(out.code, Some(1), "{name}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("{name}.bc")) && out.stderr.contains("bitcode"),
            "{name}: {}",
            out.stderr
        );
    }
    // The untruncated file builds.
    run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(dir.path().join("good.ptx"))
            .arg(&good),
    );
}

#[test]
fn irreducible_flow_is_left_alone_and_recursion_builds() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(dir.path().join("i.ptx"))
            .arg(testdata("ll/irreducible.ll"))
            .arg("--report")
            .arg(&report),
    );
    let k = &read_report(&report).kernels[0];
    assert!(!k.transform.applied);
    assert!(
        k.summary_lines().iter().any(|l| l.contains("irreducible")),
        "{:?}",
        k.summary_lines()
    );
    let ptx = dir.path().join("r.ptx");
    run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg(testdata("ll/recursion.ll"))
            .arg("--report")
            .arg(&report),
    );
    assert!(read_report(&report).kernels[0].transform.applied);
    assert_ptxas_accepts(&ptx);
}

/// A kernel whose loop has `accesses` loads and stores and which has
/// `loops` more loops after it.
pub fn huge_kernel(accesses: usize, loops: usize) -> String {
    let mut ir = String::from(
        "target datalayout = \"e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64\"\n\
         target triple = \"nvptx64-nvidia-cuda\"\n\
         declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         define ptx_kernel void @huge(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {\n\
         entry:\n  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         \x20 %t = zext i32 %tid to i64\n  %b = mul i64 %t, %chunk\n  %e = add i64 %b, %chunk\n\
         \x20 br label %l0\n",
    );
    for l in 0..=loops {
        let next = format!("l{}", l + 1);
        ir += &format!(
            "l{l}:\n  %i{l} = phi i64 [ %b, %{prev} ], [ %n{l}, %l{l} ]\n",
            prev = if l == 0 {
                "entry".to_string()
            } else {
                format!("l{}", l - 1)
            }
        );
        let count = if l == 0 { accesses } else { 2 };
        for a in 0..count {
            ir += &format!(
                "  %p{l}_{a} = getelementptr inbounds i32, ptr %in, i64 %i{l}\n\
                 \x20 %v{l}_{a} = load i32, ptr %p{l}_{a}, align 4\n\
                 \x20 %w{l}_{a} = add i32 %v{l}_{a}, {a}\n\
                 \x20 %q{l}_{a} = getelementptr inbounds i32, ptr %out, i64 %i{l}\n\
                 \x20 store i32 %w{l}_{a}, ptr %q{l}_{a}, align 4\n"
            );
        }
        ir += &format!(
            "  %n{l} = add nuw i64 %i{l}, 1\n  %d{l} = icmp eq i64 %n{l}, %e\n\
             \x20 br i1 %d{l}, label %{next}, label %l{l}\n"
        );
    }
    ir += &format!("l{}:\n  ret void\n}}\n", loops + 1);
    ir
}

#[test]
fn a_huge_kernel_builds() {
    // 600 accesses in the main loop and 60 more loops (the debug build of
    // the pass runs here). How long larger ones take is measured by
    // `ci/compile-time` (a benchmark), not asserted.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.ll");
    std::fs::write(&path, huge_kernel(600, 60)).unwrap();
    let report = dir.path().join("huge.json");
    run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(dir.path().join("huge.ptx"))
            .arg(&path)
            .arg("--report")
            .arg(&report),
    );
    let k = &read_report(&report).kernels[0];
    assert_eq!(k.loops.len(), 61);
}

#[test]
fn mutations_are_reproducible() {
    let text = "a\nb\nc\nd\n";
    assert_eq!(mutate(text, 3), mutate(text, 3));
    assert!((0..20).any(|s| mutate(text, s) != mutate(text, s + 1)));
    assert!(Path::new(&testdata("ll")).is_dir());
}

#[test]
fn saved_fuzz_reproducers_build_with_the_driver() {
    // Each file in testdata/fuzz once broke a build (the header says how).
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<_> = std::fs::read_dir(testdata("fuzz"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "testdata/fuzz lost its reproducers");
    for case in cases {
        let ptx = dir.path().join("case.ptx");
        run_ok(
            driver()
                .args(["build", "--emit", "ptx", "-o"])
                .arg(&ptx)
                .arg(&case),
        );
        assert_ptxas_accepts(&ptx);
    }
}
