//! Full runs: in a counted unit-stride byte loop, the run after an access at
//! the first byte of every line is unrolled once per iteration, each access
//! at a constant offset in shared memory with its structure's alias scope
//! and the alignment of its offset, so that LLVM can merge them into 4-byte
//! accesses. Loops whose runs keep their exit tests, and the option off,
//! have none.

mod common;

use sl1_pass::Options;

/// The transformed text of `line_runs.ll`'s kernel `kernel` under `options`.
fn transformed(kernel: &str, options: &Options) -> String {
    common::transform_case("line_runs", options)
        .text(kernel)
        .to_string()
}

/// The in-place accesses of full runs: (instruction line, its offset).
fn in_place(text: &str) -> Vec<(String, i64)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, rest)) = line
            .trim()
            .split_once(" = getelementptr i8, ptr addrspace(3) ")
        else {
            continue;
        };
        if !name.starts_with("%sl1.full") {
            continue;
        }
        let offset: i64 = rest.rsplit("i64 ").next().unwrap().trim().parse().unwrap();
        let user = lines[i + 1..]
            .iter()
            .find(|l| l.contains(&format!("{name},")))
            .unwrap_or_else(|| panic!("no access through {name}: {text}"));
        out.push((user.trim().to_string(), offset));
    }
    out
}

#[test]
fn a_byte_loop_runs_whole_lines_unrolled_at_aligned_offsets() {
    let text = transformed("counted", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    let accesses = in_place(&text);
    assert!(!accesses.is_empty(), "{text}");
    for (access, offset) in &accesses {
        // From the first offset a 4-byte group starts at on (before it the
        // run keeps its hit calls), aligned as the offset is.
        assert!(*offset >= 4, "{access} at {offset}");
        let align = if offset % 4 == 0 { 4 } else { offset & -offset };
        assert!(
            access.contains(&format!("align {align},")),
            "{access} at {offset}"
        );
        assert!(access.contains("!alias.scope"), "{access}");
        assert!(access.contains("!noalias"), "{access}");
    }
    let loads = accesses
        .iter()
        .filter(|(a, _)| a.contains("load i8"))
        .count();
    let stores = accesses
        .iter()
        .filter(|(a, _)| a.starts_with("store i8"))
        .count();
    // 32 B lines: after the first byte, 31 iterations; 16 B lines: 15. In
    // place from offset 4 on (4 to 31, 4 to 15), a load and a store each.
    assert_eq!(loads, 28 + 12, "{text}");
    assert_eq!(stores, 28 + 12, "{text}");
}

#[test]
fn runs_with_exit_tests_and_the_option_off_have_no_full_runs() {
    let off = Options {
        full_runs: false,
        ..Options::default()
    };
    for (kernel, options) in [("stops", Options::default()), ("counted", off)] {
        let text = transformed(kernel, &options);
        assert!(text.contains(".run"), "{kernel}: {text}");
        assert!(!text.contains("run.full"), "{kernel}: {text}");
        assert!(!text.contains("!alias.scope"), "{kernel}: {text}");
    }
}
